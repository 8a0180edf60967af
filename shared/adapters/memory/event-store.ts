import type { EventRecord } from '../../domain/events/event-record.js';
import type {
  EventInsertOutcome,
  EventStore,
  IdempotencyClaim,
  QueuedEventPage,
} from '../../domain/events/event-store.js';
import { clientKey, copy, MemoryEngineData, stored } from './engine-data.js';

const lockKey = (clientId: number, keyHash: string): string => `${clientId}\u0000${keyHash}`;

/**
 * EventStore in memory, with the DynamoDB adapter's contract: the idempotency lock is checked before the event id
 * (a replayed key answers `duplicate` even when its drawn id is also taken), and a lock stays until its TTL removes
 * it — an expired lock not yet removed still answers `duplicate`, as DynamoDB's lazy TTL does; here it is never removed.
 */
export class MemoryEventStore implements EventStore {
  constructor(readonly data: MemoryEngineData = new MemoryEngineData()) {}

  async insert(event: EventRecord, idempotency?: IdempotencyClaim): Promise<EventInsertOutcome> {
    const k = clientKey(event.client_id, event.id);
    const lk = idempotency && lockKey(event.client_id, idempotency.keyHash);
    const lock = lk === undefined ? undefined : this.data.idempotency.get(lk);
    if (lock) return { kind: 'duplicate', eventId: lock.event_id, requestHash: lock.request_hash };
    if (this.data.events.has(k)) return { kind: 'id_taken' };
    this.data.events.set(k, stored(event));
    this.data.queuedIndex.add(k);
    if (lk !== undefined && idempotency) {
      this.data.idempotency.set(lk, {
        event_id: event.id,
        request_hash: idempotency.requestHash,
        created_at: event.created_at,
        expires_at: idempotency.expiresAt,
      });
    }
    return { kind: 'inserted' };
  }

  async get(clientId: number, eventId: number): Promise<EventRecord | undefined> {
    const found = this.data.events.get(clientKey(clientId, eventId));
    return found && copy(found);
  }

  async listQueuedBefore(before: string, limit: number, cursor?: string): Promise<QueuedEventPage> {
    const after = cursor === undefined ? undefined : (JSON.parse(cursor) as QueuedPosition);
    const queued = [...this.data.queuedIndex]
      .map((k) => this.data.events.get(k)!)
      .filter((event) => event.created_at < before)
      .map((event): QueuedPosition => [event.created_at, event.client_id, event.id])
      .sort(comparePositions)
      .filter((position) => after === undefined || comparePositions(position, after) > 0);
    const page = queued.slice(0, limit);
    const events = page.map(([created_at, client_id, id]) => ({ id, client_id, created_at }));
    return queued.length > limit ? { events, cursor: JSON.stringify(page.at(-1)) } : { events };
  }
}

/** An entry's place in the queued index: created_at, then client and event id (a total order, unlike created_at). */
type QueuedPosition = [createdAt: string, clientId: number, eventId: number];

function comparePositions(a: QueuedPosition, b: QueuedPosition): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1] || a[2] - b[2];
}
