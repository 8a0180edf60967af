import { createHash } from 'node:crypto';
import { conflict, invalidField, unprocessable } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { timeOrderedId } from '../ids/time-ordered-id.js';
import type { EventRecord } from './event-record.js';
import type { EventStore } from './event-store.js';
import { unknownMemberProblems, type EventBody } from './schemas.js';

const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
const IDEMPOTENCY_TTL_SECONDS = 30 * 24 * 3600;
const MAX_ID_DRAWS = 5;

export interface IngestDeps {
  clock: Clock;
  events: EventStore;
}

export type IngestOutcome = { kind: 'created'; event: EventRecord } | { kind: 'replayed'; event: EventRecord };

/** A stable digest of a JSON value: object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
export function requestDigest(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Stores an event (one write: the event, with its idempotency lock in the same transaction). A repeated
 * `idempotency_key` with the same body replays the original event; with another body it is a 409. Processing is
 * the caller's next step (enqueue, or process in the request).
 */
export async function ingestEvent(
  deps: IngestDeps,
  clientId: number,
  body: EventBody,
  raw: Record<string, unknown>,
  mode: 'sync' | 'async',
): Promise<IngestOutcome> {
  const now = deps.clock.now();
  const ts = body.ts ?? now.toISOString();
  if (Date.parse(ts) > now.getTime() + FUTURE_TOLERANCE_MS) {
    throw invalidField('max', 'ts', 'Must not be more than 5 minutes in the future');
  }
  const unknown = unknownMemberProblems(raw);
  if (unknown.length > 0) {
    throw unprocessable(unknown.map((p) => ({ condition: p.condition, key: p.path.join('.'), error: p.message })));
  }
  const requestHash = requestDigest(raw);
  const claim = body.idempotency_key
    ? {
        keyHash: sha256(body.idempotency_key),
        requestHash,
        expiresAt: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS,
      }
    : undefined;
  const { metadata, ts: _ts, ...fields } = body;
  for (let draw = 1; ; draw += 1) {
    const event: EventRecord = {
      ...fields,
      ...(metadata ? { metadata } : {}),
      id: timeOrderedId(now),
      client_id: clientId,
      ts,
      payload: raw,
      mode,
      queue_status: 'queued',
      retry_count: 0,
      created_at: now.toISOString(),
    };
    const outcome = await deps.events.insert(event, claim);
    if (outcome.kind === 'inserted') return { kind: 'created', event };
    if (outcome.kind === 'duplicate') {
      if (outcome.requestHash !== requestHash) {
        throw conflict(
          'idempotency_conflict',
          'idempotency_key',
          'This idempotency_key was used with a different request body',
        );
      }
      const original = await deps.events.get(clientId, outcome.eventId);
      // The lock and the event are written together, so the event exists unless it was erased meanwhile.
      if (!original)
        throw conflict('idempotency_conflict', 'idempotency_key', 'The event of this idempotency_key no longer exists');
      return { kind: 'replayed', event: original };
    }
    if (draw >= MAX_ID_DRAWS) throw new Error('could not draw a free event id');
  }
}
