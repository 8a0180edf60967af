import type { EventRecord } from './event-record.js';

/** The idempotency lock written with an event: the key's digest and the digest of the request it answered. */
export interface IdempotencyClaim {
  keyHash: string;
  requestHash: string;
  /** Epoch seconds after which DynamoDB's TTL removes the lock (30 days). */
  expiresAt: number;
}

export type EventInsertOutcome =
  | { kind: 'inserted' }
  /** The idempotency key was used before: the event it answered and the request digest it was answered for. */
  | { kind: 'duplicate'; eventId: number; requestHash: string }
  /** The drawn event id is taken (a time-ordered id collision): draw another and try again. */
  | { kind: 'id_taken' };

/** A queued event as its index entry has it: the pointer the sweeper enqueues, and when it was written (its age). */
export type QueuedEventRef = Pick<EventRecord, 'id' | 'client_id' | 'created_at'>;

/** One page of queued events; `cursor` absent = nothing after this page. */
export interface QueuedEventPage {
  events: QueuedEventRef[];
  cursor?: string;
}

export interface EventStore {
  /** Stores a new event, with its idempotency lock in the same transaction when given: one write request. */
  insert(event: EventRecord, idempotency?: IdempotencyClaim): Promise<EventInsertOutcome>;
  get(clientId: number, eventId: number): Promise<EventRecord | undefined>;
  /**
   * One page of the events still queued that were created before `before` (the sweeper re-enqueues them), oldest
   * first: up to `limit`, then the cursor of the next page. `cursor` is opaque, from the previous page of the same
   * `before`; absent = the first page. An event processed meanwhile simply no longer appears.
   */
  listQueuedBefore(before: string, limit: number, cursor?: string): Promise<QueuedEventPage>;
}
