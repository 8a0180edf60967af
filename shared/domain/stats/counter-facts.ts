import { EXECUTION_STATUS } from '../executions/execution-record.js';
import { SENT_STATUS } from '../sent-emails/sent-email-record.js';
import { utcDayOf } from '../time/utc-days.js';
import type { StatCounts } from './stats-counters.js';

/**
 * The records whose changes the day counters are read from. Contacts stay out: they are the busiest items (every
 * import, every open) and everything a count needs sits on these three.
 */
export type CountedEntity = 'event' | 'execution' | 'sent_email_log';

/** One change of a counted record: its images before and after (either absent for an insert or a removal). */
export interface CountedChange {
  entity: CountedEntity;
  clientId: number;
  old?: object;
  new?: object;
}

type Image = Readonly<Record<string, unknown>>;

/** What applying one batch of a stream shard's changes did (logged, and read by tests and the lag benchmark). */
export interface ProjectionOutcome {
  /** Records at or below the shard's position: applied before (a replay, a bisected half, a retried batch). */
  replayed: number;
  /** Records applied now (counted, or moved past). */
  applied: number;
  /** Day rows written, and the transactions they took. */
  rows: number;
  transactions: number;
}

/**
 * The day counters kept from the change stream: a batch of one stream shard's records (in stream order) applied so that
 * each record counts exactly once, however often the batch or a part of it is handed over again.
 */
export interface DayCountersProjection<StreamRecord> {
  apply(shardId: string, records: readonly StreamRecord[]): Promise<ProjectionOutcome>;
}

/** A day row of a client's counters: one workflow's (0 when the fact cannot name one) or one event type's. */
export type CounterRow = { workflowId: number } | { eventType: string };

/** What one change adds to one day row. */
export interface CounterDelta {
  clientId: number;
  /** UTC yyyy-mm-dd. */
  day: string;
  row: CounterRow;
  counts?: Partial<StatCounts>;
  /** Events of the row's type received. */
  received?: number;
  /** `skipped` / `failed` by reason code. */
  skippedReasons?: Record<string, number>;
  failedReasons?: Record<string, number>;
}

/**
 * A reason as the counters keep it: its code, before any detail (`send_rejected: MessageRejected …` →
 * `send_rejected`), at most 64 characters, so the reasons a day row holds stay few and short.
 */
export const reasonCode = (reason: unknown): string =>
  (typeof reason === 'string' ? reason : 'unknown').split(':')[0]!.trim().slice(0, 64) || 'unknown';

/**
 * What a change adds to the day counters. Every rule reads only the record's own images, so a change counts the same
 * however often it is read: exactness is the reader's checkpoint's business, not this function's. A removal (erasure,
 * expiry) never counts; nor does an execution's insert (its event counts it, and a retry is not a new execution).
 */
export function deltasOfChange(change: CountedChange): CounterDelta[] {
  const old = change.old as Image | undefined;
  const now = change.new as Image | undefined;
  if (!now) return [];
  if (change.entity === 'event') return eventDeltas(change.clientId, old, now);
  if (change.entity === 'execution') return old ? executionDeltas(change.clientId, old, now) : [];
  return logDeltas(change.clientId, old, now);
}

/**
 * An event counts once, when processing writes it (queued → processed or failed): received by type, and on each
 * workflow it started (`execution_workflow_ids`, skipped ones included) and converted (`converted_workflow_ids`).
 */
function eventDeltas(clientId: number, old: Image | undefined, now: Image): CounterDelta[] {
  if (old?.['queue_status'] !== 'queued' || now['queue_status'] === 'queued') return [];
  const day = dayOf(now['created_at']);
  if (!day || typeof now['type'] !== 'string') return [];
  const deltas: CounterDelta[] = [{ clientId, day, row: { eventType: now['type'] }, received: 1 }];
  for (const workflowId of numbersOf(now['execution_workflow_ids']))
    deltas.push({ clientId, day, row: { workflowId }, counts: { executions: 1 } });
  for (const workflowId of numbersOf(now['converted_workflow_ids']))
    deltas.push({ clientId, day, row: { workflowId }, counts: { converted: 1 } });
  return deltas;
}

interface ClaimImage {
  log_id?: unknown;
  quota_day?: unknown;
}

function executionDeltas(clientId: number, old: Image, now: Image): CounterDelta[] {
  const workflowId = typeof now['workflow_id'] === 'number' ? now['workflow_id'] : 0;
  const row = { workflowId };
  const deltas: CounterDelta[] = [];
  const oldClaim = old['claim'] as ClaimImage | undefined;
  const newClaim = now['claim'] as ClaimImage | undefined;
  const status = now['status'];
  const processedDay = dayOf(now['processed_at']) ?? dayOf(now['updated_at']);
  // A claim made: one e-mail sent, on the claim's quota day. Given back (ended without the send, the execution not
  // completed): taken back on that same day.
  if (newClaim && (!oldClaim || oldClaim.log_id !== newClaim.log_id)) {
    const day = dayOf(newClaim.quota_day);
    if (day) deltas.push({ clientId, day, row, counts: { sent: 1 } });
  }
  if (oldClaim && (!newClaim || oldClaim.log_id !== newClaim.log_id) && status !== EXECUTION_STATUS.completed) {
    const day = dayOf(oldClaim.quota_day);
    if (day) deltas.push({ clientId, day, row, counts: { sent: -1 } });
  }
  const entered = (to: number) => status === to && old['status'] !== to;
  if (entered(EXECUTION_STATUS.failed)) {
    // A rejected send fails on its claim's day (with the claim's give-back); any other failure on the day it ended.
    const day = dayOf(oldClaim?.quota_day) ?? processedDay;
    if (day)
      deltas.push({ clientId, day, row, counts: { failed: 1 }, failedReasons: { [reasonCode(now['reason'])]: 1 } });
  }
  if (entered(EXECUTION_STATUS.skipped) && processedDay)
    deltas.push({
      clientId,
      day: processedDay,
      row,
      counts: { skipped: 1 },
      skippedReasons: { [reasonCode(now['reason'])]: 1 },
    });
  if (entered(EXECUTION_STATUS.cancelled) && now['reason'] === 'goal_reached' && processedDay)
    deltas.push({ clientId, day: processedDay, row, counts: { exited: 1 } });
  const deferrals = numberOf(now['deferrals']) - numberOf(old['deferrals']);
  const deferredDay = dayOf(now['updated_at']);
  if (deferrals > 0 && deferredDay) deltas.push({ clientId, day: deferredDay, row, counts: { deferred: deferrals } });
  return deltas;
}

/**
 * A status log counts when it is written (its insert): a delivery, a bounce by kind, a complaint; a machine's open or
 * click every time; a human's only on the log that took the e-mail's first open / click (`first_open`, `first_click`,
 * set with the marker that makes it once per e-mail); a contact unsubscribed by the notification (`suppression`) or by
 * the e-mail's link (`unsubscribed_by`, which a later rewrite of the same log does not count again).
 */
function logDeltas(clientId: number, old: Image | undefined, now: Image): CounterDelta[] {
  const day = dayOf(now['created_at']);
  if (!day) return [];
  const counts: Partial<StatCounts> = {};
  if (!old) {
    const status = now['status'];
    const bot = now['is_bot'] === true;
    if (status === SENT_STATUS.delivered) counts.delivered = 1;
    if (bot && status === SENT_STATUS.opened) counts.bot_opened = 1;
    if (bot && status === SENT_STATUS.clicked) counts.bot_clicked = 1;
    if (!bot && now['first_open'] === true) counts.opened = 1;
    if (!bot && now['first_click'] === true) counts.clicked = 1;
    if (status === SENT_STATUS.bounced) counts[now['bounce_type'] === 'hard' ? 'bounced_hard' : 'bounced_soft'] = 1;
    if (status === SENT_STATUS.complained) counts.complained = 1;
    const suppression = now['suppression'];
    if (suppression === 'ses_unsubscribe') counts.unsubscribed_ses = 1;
    else if (typeof suppression === 'string') counts.unsubscribed_suppression = 1;
  }
  if (now['unsubscribed_by'] === 'link' && old?.['unsubscribed_by'] !== 'link') counts.unsubscribed_link = 1;
  if (Object.keys(counts).length === 0) return [];
  const workflowId = typeof now['workflow_id'] === 'number' ? now['workflow_id'] : 0;
  return [{ clientId, day, row: { workflowId }, counts }];
}

const dayOf = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : utcDayOf(at);
};

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

const numbersOf = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];

/** A day row's key, the same for every delta of that row: `<client>#<day>#W<workflow>` or `#E<type>`. */
export const counterRowKey = (delta: Pick<CounterDelta, 'clientId' | 'day' | 'row'>): string =>
  `${delta.clientId}#${delta.day}#${'workflowId' in delta.row ? `W${delta.row.workflowId}` : `E${delta.row.eventType}`}`;

/** Deltas summed per day row (a batch of changes becomes one write per row). */
export function sumDeltas(deltas: readonly CounterDelta[]): CounterDelta[] {
  const rows = new Map<string, CounterDelta>();
  for (const delta of deltas) {
    const key = counterRowKey(delta);
    const into = rows.get(key);
    if (!into) {
      rows.set(key, structuredClone(delta));
      continue;
    }
    if (delta.received) into.received = (into.received ?? 0) + delta.received;
    if (delta.counts) {
      into.counts ??= {};
      for (const [name, value] of Object.entries(delta.counts) as [keyof StatCounts, number][])
        into.counts[name] = (into.counts[name] ?? 0) + value;
    }
    for (const field of ['skippedReasons', 'failedReasons'] as const) {
      const from = delta[field];
      if (!from) continue;
      into[field] ??= {};
      const to = into[field];
      for (const [reason, count] of Object.entries(from)) to[reason] = (to[reason] ?? 0) + count;
    }
  }
  return [...rows.values()];
}
