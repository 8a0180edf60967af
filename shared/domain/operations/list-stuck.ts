import type { Clock } from '../../platform.js';
import type { EventStore } from '../events/event-store.js';
import { EXECUTION_STATUS, type ExecutionStatus } from '../executions/execution-record.js';
import type { ExecutionStore } from '../executions/execution-store.js';

export interface ListStuckDeps {
  executions: Pick<ExecutionStore, 'listExecutingBefore' | 'get'>;
  events: Pick<EventStore, 'listQueuedBefore'>;
  clock: Clock;
}

export interface ListStuckOptions {
  /** The executor's lease (EXECUTION_LEASE_SECONDS): an execution at 2 longer than this is stuck. */
  leaseMs: number;
  /** The outbox sweeper's threshold (OUTBOX_SWEEP_AFTER_SECONDS): an event queued longer than this lost its enqueue. */
  queuedMs: number;
  /** At most this many of each kind (default 1 000); `more` says when the index had more. */
  limit?: number;
  /** Executions read at once, per wave (default 25). */
  readWave?: number;
}

/** An execution still at 2 after its lease, or still queued a lease after it was due, as read from its record. */
export interface StuckExecution {
  client_id: number;
  execution_id: number;
  status: ExecutionStatus;
  reason: string | null;
  /** Its send failed ambiguously: it waits for SES's evidence before anything is sent again. */
  outcome_unknown: boolean;
  /** Its send failed transiently: it waits for its retry message. */
  retry_pending: boolean;
  updated_at: string;
  scheduled_for: string;
  /** How long ago its lease ended (a queued one: its due time plus the lease), in whole seconds. */
  past_lease_seconds: number;
}

/** An event still queued longer than the sweeper waits. */
export interface StuckEvent {
  client_id: number;
  event_id: number;
  created_at: string;
  /** Seconds since it was written. */
  age_seconds: number;
}

export interface StuckListing {
  /** The instant the ages are counted from. */
  at: string;
  executions: StuckExecution[];
  events: StuckEvent[];
  /** The index had more than `limit` of that kind: the listing shows the first ones found. */
  more: { executions: boolean; events: boolean };
}

const DEFAULT_LIMIT = 1_000;
const DEFAULT_READ_WAVE = 25;

/**
 * What the crash recovery has not (yet) recovered, for an operator: executions at 2 whose lease ended —
 * what the stuck-execution sweep sends back to the executor — and events still queued after the outbox sweeper's
 * threshold. Both indexes are read as the sweeps read them; each execution is then read itself (in parallel waves)
 * for why it waits, and one that moved meanwhile is left out. Oldest first. Requests: the index pages (one Query per
 * shard page) and one GetItem per execution listed.
 */
export async function listStuck(deps: ListStuckDeps, options: ListStuckOptions): Promise<StuckListing> {
  const now = deps.clock.now();
  const [executions, events] = await Promise.all([
    listStuckExecutions(deps, now, options),
    listStuckEvents(deps, now, options),
  ]);
  return {
    at: now.toISOString(),
    executions: executions.found,
    events: events.found,
    more: { executions: executions.more, events: events.more },
  };
}

async function listStuckExecutions(
  deps: ListStuckDeps,
  now: Date,
  options: ListStuckOptions,
): Promise<{ found: StuckExecution[]; more: boolean }> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const wave = options.readWave ?? DEFAULT_READ_WAVE;
  const before = new Date(now.getTime() - options.leaseMs).toISOString();
  const listed: { client_id: number; execution_id: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.executions.listExecutingBefore(before, limit - listed.length, cursor);
    listed.push(...page.executions);
    cursor = page.cursor;
  } while (cursor !== undefined && listed.length < limit);

  const found: StuckExecution[] = [];
  for (let i = 0; i < listed.length; i += wave) {
    const records = await Promise.all(
      listed.slice(i, i + wave).map((ref) => deps.executions.get(ref.client_id, ref.execution_id)),
    );
    for (const record of records) {
      // Gone, ended, claimed or deferred since the index was read: no longer stuck. A queued one counts from its due time.
      if (!record || (record.status !== EXECUTION_STATUS.executing && record.status !== EXECUTION_STATUS.queued))
        continue;
      const since = record.status === EXECUTION_STATUS.executing ? record.updated_at : record.scheduled_for;
      if (since >= before) continue;
      found.push({
        client_id: record.client_id,
        execution_id: record.id,
        status: record.status,
        reason: record.reason ?? null,
        outcome_unknown: record.outcome_unknown === true,
        retry_pending: record.retry_pending === true,
        updated_at: record.updated_at,
        scheduled_for: record.scheduled_for,
        past_lease_seconds: wholeSecondsBetween(Date.parse(since) + options.leaseMs, now.getTime()),
      });
    }
  }
  found.sort((a, b) =>
    a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : a.execution_id - b.execution_id,
  );
  return { found, more: cursor !== undefined };
}

async function listStuckEvents(
  deps: ListStuckDeps,
  now: Date,
  options: ListStuckOptions,
): Promise<{ found: StuckEvent[]; more: boolean }> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const before = new Date(now.getTime() - options.queuedMs).toISOString();
  const found: StuckEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.events.listQueuedBefore(before, limit - found.length, cursor);
    for (const event of page.events) {
      found.push({
        client_id: event.client_id,
        event_id: event.id,
        created_at: event.created_at,
        age_seconds: wholeSecondsBetween(Date.parse(event.created_at), now.getTime()),
      });
    }
    cursor = page.cursor;
  } while (cursor !== undefined && found.length < limit);
  return { found, more: cursor !== undefined };
}

const wholeSecondsBetween = (fromMs: number, toMs: number): number => Math.floor((toMs - fromMs) / 1000);
