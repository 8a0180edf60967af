import { createHash } from 'node:crypto';
import { LINK_HUMAN, LINK_MACHINE } from './link-counters.js';
import { EXECUTION_STATUS } from '../executions/execution-record.js';
import { SENT_STATUS } from '../sent-emails/sent-email-record.js';
import { utcDayOf } from '../time/utc-days.js';
import type { StatCounts } from './stats-counters.js';

/**
 * The records whose changes the day counters are read from. Contacts stay out: they are the busiest items (every
 * import, every open) and everything a count needs sits on these. A segment's member entries are counted as they come
 * and go: the segment's size is their sum.
 */
export type CountedEntity = 'event' | 'execution' | 'sent_email_log' | 'run' | 'segment_member';

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
  /** Journeys whose split arm totals the batch's records move (a winner may be due), each once. */
  splitsMoved: { clientId: number; journeyId: number }[];
}

/** The journeys whose split arm totals (`x_…` on the gauge) these deltas move, each once. */
export function splitsMovedBy(deltas: readonly CounterDelta[]): { clientId: number; journeyId: number }[] {
  const moved = new Map<string, { clientId: number; journeyId: number }>();
  for (const delta of deltas)
    if ('journeyGauge' in delta.row && Object.keys(delta.adds ?? {}).some((name) => name.startsWith(ARM_PREFIX)))
      moved.set(`${delta.clientId}#${delta.row.journeyGauge}`, {
        clientId: delta.clientId,
        journeyId: delta.row.journeyGauge,
      });
  return [...moved.values()];
}

/**
 * The day counters kept from the change stream: a batch of one stream shard's records (in stream order) applied so that
 * each record counts exactly once, however often the batch or a part of it is handed over again.
 */
export interface DayCountersProjection<StreamRecord> {
  apply(shardId: string, records: readonly StreamRecord[]): Promise<ProjectionOutcome>;
}

/**
 * A day row of a client's counters: one workflow's (0 when the fact cannot name one), one event type's, or one journey
 * step's; or a journey's gauge (runs at each step now: not a day's count, the delta's day is only its fact's).
 */
export type CounterRow =
  | { workflowId: number }
  | { eventType: string }
  | { journeyId: number; stepId: string }
  | { journeyGauge: number }
  | { segmentGauge: number }
  | { broadcastLink: number; link: string; url: string }
  | { broadcast: number; variant?: number };

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
  /** A journey step row's or gauge's counters by attribute name (JOURNEY_STEP_COUNTERS, `v_<via>`, `s_<step>`, `x_…`). */
  adds?: Record<string, number>;
  /** A gauge's attributes set only when absent (epoch ms): when a split's first run took an arm (`x_<split>:since`). */
  firstSeen?: Record<string, number>;
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
  if (change.entity === 'segment_member') return memberDeltas(change.clientId, old, now);
  if (!now) return [];
  if (change.entity === 'event') return eventDeltas(change.clientId, old, now);
  if (change.entity === 'execution') return old ? executionDeltas(change.clientId, old, now) : [];
  if (change.entity === 'run') return runDeltas(change.clientId, old, now);
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
  // A journey's converted e-mail also counts on the step that sent it and on the split arms its run took.
  for (const converted of Array.isArray(now['converted_steps']) ? (now['converted_steps'] as Image[]) : []) {
    const journeyId = converted['journey_id'];
    const stepId = converted['step_id'];
    if (typeof journeyId !== 'number' || typeof stepId !== 'string') continue;
    deltas.push({ clientId, day, row: { journeyId, stepId }, adds: { converted: 1 } });
    deltas.push(...armDeltas(clientId, day, journeyId, converted['arms'], { converted: 1 }));
  }
  return deltas;
}

/**
 * What a journey e-mail's fact adds to each split arm its run took, on the journey's gauge (totals since the split
 * began, not a day's: a winner is read from them): `x_<split>:<metric>:<arm>`.
 */
function armDeltas(
  clientId: number,
  day: string,
  journeyId: number,
  arms: unknown,
  metrics: Partial<Record<ArmMetric, number>>,
): CounterDelta[] {
  if (typeof arms !== 'object' || arms === null) return [];
  const adds: Record<string, number> = {};
  for (const [split, arm] of Object.entries(arms))
    if (typeof arm === 'string')
      for (const [metric, n] of Object.entries(metrics)) if (n) adds[armAttribute(split, metric as ArmMetric, arm)] = n;
  return Object.keys(adds).length > 0 ? [{ clientId, day, row: { journeyGauge: journeyId }, adds }] : [];
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
  // A journey's send step counts its sends on its own step row too.
  const stepRow =
    typeof now['step_id'] === 'string' && workflowId > 0
      ? { journeyId: workflowId, stepId: now['step_id'] }
      : undefined;
  const sent = (day: string, n: number) => {
    deltas.push({ clientId, day, row, counts: { sent: n } });
    if (stepRow) {
      deltas.push({ clientId, day, row: stepRow, adds: { sent: n } });
      deltas.push(...armDeltas(clientId, day, workflowId, now['arms'], { sent: n }));
    }
  };
  if (newClaim && (!oldClaim || oldClaim.log_id !== newClaim.log_id)) {
    const day = dayOf(newClaim.quota_day);
    if (day) sent(day, 1);
  }
  if (oldClaim && (!newClaim || oldClaim.log_id !== newClaim.log_id) && status !== EXECUTION_STATUS.completed) {
    const day = dayOf(oldClaim.quota_day);
    if (day) sent(day, -1);
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
  return [...deltas, ...onBroadcast(now, deltas), ...conversionDeltas(clientId, old, now)];
}

/**
 * A broadcast recipient converted: `converted_at` is set once (conditionally) by the processing of its broadcast's
 * conversion event, so its first appearance counts once on the broadcast's totals (and its variant's row). Only the
 * broadcast's rows: the workflow rows count workflow conversions from events.
 */
function conversionDeltas(clientId: number, old: Image, now: Image): CounterDelta[] {
  const broadcastId = now['broadcast_id'];
  const day = dayOf(now['converted_at']);
  if (typeof broadcastId !== 'number' || !day || old['converted_at'] !== undefined) return [];
  const variant = now['ab_test'] === true ? now['variant'] : undefined;
  return [
    { clientId, day, row: { broadcast: broadcastId }, counts: { converted: 1 } },
    ...(typeof variant === 'number'
      ? [{ clientId, day, row: { broadcast: broadcastId, variant }, counts: { converted: 1 } }]
      : []),
  ];
}

/**
 * A broadcast recipient's facts count on its broadcast's totals too: the same counts as its workflow row's (sent,
 * failed, skipped, deferred, and its e-mail's delivery and engagement), summed over the broadcast's whole life.
 */
function onBroadcast(image: Image, deltas: readonly CounterDelta[]): CounterDelta[] {
  const broadcastId = image['broadcast_id'];
  if (typeof broadcastId !== 'number') return [];
  // A/B results: the same counts per variant of the test share (a holdout, and a broadcast with no test, count on the
  // totals only).
  const variant = image['ab_test'] === true ? image['variant'] : undefined;
  return deltas
    .filter((delta) => 'workflowId' in delta.row)
    .flatMap((delta) => [
      { ...delta, row: { broadcast: broadcastId } },
      ...(typeof variant === 'number' ? [{ ...delta, row: { broadcast: broadcastId, variant } }] : []),
    ]);
}

/**
 * A segment's member entry counts +1 when it is written and −1 when it goes (the contact left, was erased, or the
 * segment was deleted): the gauge is the segment's size now. A rewrite of a kept member (its zone moved) counts
 * nothing.
 */
function memberDeltas(clientId: number, old: Image | undefined, now: Image | undefined): CounterDelta[] {
  if ((old === undefined) === (now === undefined)) return [];
  const image = (now ?? old)!;
  const segmentId = image['segment_id'];
  const day = dayOf(image['at']) ?? dayOf(image['updated_at']);
  if (typeof segmentId !== 'number') return [];
  return [{ clientId, day: day ?? '1970-01-01', row: { segmentGauge: segmentId }, adds: { n: now ? 1 : -1 } }];
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
  const links = linkDeltas(clientId, day, old, now);
  if (Object.keys(counts).length === 0) return links;
  const workflowId = typeof now['workflow_id'] === 'number' ? now['workflow_id'] : 0;
  const deltas: CounterDelta[] = [{ clientId, day, row: { workflowId }, counts }];
  deltas.push(...onBroadcast(now, deltas), ...links);
  // A journey's e-mail counts on its send step too, and its human opens and clicks on the split arms its run took.
  const stepId = now['step_id'];
  if (workflowId > 0 && typeof stepId === 'string') {
    const adds: Record<string, number> = {};
    for (const [from, to] of STEP_LOG_COUNTERS) if (counts[from]) adds[to] = counts[from];
    if (Object.keys(adds).length > 0) deltas.push({ clientId, day, row: { journeyId: workflowId, stepId }, adds });
    deltas.push(
      ...armDeltas(clientId, day, workflowId, now['arms'], {
        human_opens: counts.opened ?? 0,
        human_clicks: counts.clicked ?? 0,
      }),
    );
  }
  return deltas;
}

/**
 * A broadcast e-mail's click counts on its link's row: every click notification, a person's (`h`) or a machine's
 * (`m`: link scanners, privacy proxies, as bot detection judged it), by the link as clicked (linkOf). Not only the
 * e-mail's first click: which links people follow is the question, and each notification is one log, counted once.
 */
function linkDeltas(clientId: number, day: string, old: Image | undefined, now: Image): CounterDelta[] {
  const broadcastId = now['broadcast_id'];
  if (old || typeof broadcastId !== 'number' || now['status'] !== SENT_STATUS.clicked) return [];
  const link = linkOf(now['url']);
  if (!link) return [];
  return [
    {
      clientId,
      day,
      row: { broadcastLink: broadcastId, link: link.hash, url: link.url },
      adds: { [now['is_bot'] === true ? LINK_MACHINE : LINK_HUMAN]: 1 },
    },
  ];
}

/** The longest URL a link row keeps (a longer one is cut: the row is still told apart by the whole URL's hash). */
export const LINK_URL_MAX_CHARS = 2048;

/**
 * This service's own per-recipient links (the unsubscribe and view-in-browser pages: `/u/<token>`, `/v/<token>`,
 * a token being `<payload>.<43-character signature>`): one row each, not one per recipient.
 */
const OWN_LINK = /^\/([uv])\/[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{43}$/;

/**
 * A clicked URL as its link row knows it: parsed by the WHATWG URL parser (scheme and host lowercased), the fragment
 * dropped (never sent to a server), the query kept (links differing only by it are different links); this service's
 * own per-recipient pages collapsed to `<origin>/u/{token}` and `/v/{token}`. The row's key is the first 12 hex of its
 * SHA-1. Undefined for what is no http(s) URL.
 */
export function linkOf(value: unknown): { url: string; hash: string } | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  parsed.hash = '';
  const own = OWN_LINK.exec(parsed.pathname);
  const url = own && parsed.search === '' ? `${parsed.origin}/${own[1]}/{token}` : parsed.toString();
  return { url: url.slice(0, LINK_URL_MAX_CHARS), hash: createHash('sha1').update(url).digest('hex').slice(0, 12) };
}

/** A journey step row's counters of its e-mails' status logs, from the workflow row's: only humans' opens and clicks. */
const STEP_LOG_COUNTERS = [
  ['delivered', 'delivered'],
  ['opened', 'human_opens'],
  ['clicked', 'human_clicks'],
  ['bot_opened', 'machine_opens'],
  ['bot_clicked', 'machine_clicks'],
] as const satisfies readonly (readonly [keyof StatCounts, string])[];

/** The counters of a journey step's day row (besides `sent` and `v_<via>`: how runs left it, by branch, arm or edge). */
export const JOURNEY_STEP_COUNTERS = [
  'entered',
  'left',
  'completed',
  'exited',
  'ended',
  'sent',
  'delivered',
  'human_opens',
  'human_clicks',
  'machine_opens',
  'machine_clicks',
  'converted',
] as const;
/** Prefix of a step row's counter of runs that left it by one way (a branch's name, `otherwise`, an arm, on_event…). */
export const VIA_PREFIX = 'v_';
/** Prefix of a gauge's attribute: runs in flight at that step. */
export const GAUGE_PREFIX = 's_';
/** Prefix of a gauge's split arm totals: `x_<split>:<metric>:<arm>` (a step id holds no `:`; an arm's name may). */
export const ARM_PREFIX = 'x_';
/** What a split arm's totals count: runs that took it, e-mails its runs sent, their human opens and clicks, conversions. */
export const ARM_METRICS = ['runs', 'sent', 'human_opens', 'human_clicks', 'converted'] as const;
export type ArmMetric = (typeof ARM_METRICS)[number];
export const armAttribute = (split: string, metric: ArmMetric, arm: string): string =>
  `${ARM_PREFIX}${split}:${metric}:${arm}`;
/** The gauge's `x_<split>:since`: when the split's first run took an arm (epoch ms), set once. */
export const armSinceAttribute = (split: string): string => `${ARM_PREFIX}${split}:since`;

const IN_FLIGHT = new Set(['active', 'waiting']);

interface PathImage {
  step?: unknown;
  at?: unknown;
  via?: unknown;
}

/**
 * A run's change: its insert enters its first step; each step its path gained since the old image was left (by its
 * `via`) and the next one entered; an end counts completed / exited / ended on the step it ended at. The gauge follows
 * the runs in flight (active or waiting) by their current step: −1 where the old image was, +1 where the new one is.
 */
function runDeltas(clientId: number, old: Image | undefined, now: Image): CounterDelta[] {
  const journeyId = now['journey_id'];
  const stepId = now['step_id'];
  if (typeof journeyId !== 'number' || typeof stepId !== 'string') return [];
  const deltas: CounterDelta[] = [];
  const step = (id: string, day: string | undefined, adds: Record<string, number>) => {
    if (day) deltas.push({ clientId, day, row: { journeyId, stepId: id }, adds });
  };
  const gauge: Record<string, number> = {};
  const oldPath = Array.isArray(old?.['path']) ? (old['path'] as PathImage[]) : [];
  const newPath = Array.isArray(now['path']) ? (now['path'] as PathImage[]) : [];
  if (!old) step(stepId, dayOf(now['created_at']), { entered: 1 });
  const left = newPath.slice(oldPath.length);
  const passed = new Set(newPath.map((p) => p.step));
  const splits = (typeof now['arms'] === 'object' && now['arms'] !== null ? now['arms'] : {}) as Image;
  const armsTaken: Record<string, number> = {};
  const firstSeen: Record<string, number> = {};
  left.forEach((entry, i) => {
    if (typeof entry.step !== 'string') return;
    const day = dayOf(entry.at);
    step(entry.step, day, {
      left: 1,
      ...(typeof entry.via === 'string' ? { [`${VIA_PREFIX}${entry.via}`]: 1 } : {}),
    });
    // A split's arm taken: its total of runs on the gauge, and when the split's first run came.
    if (splits[entry.step] !== undefined && typeof entry.via === 'string') {
      armsTaken[armAttribute(entry.step, 'runs', entry.via)] = 1;
      const at = typeof entry.at === 'string' ? Date.parse(entry.at) : Number.NaN;
      if (!Number.isNaN(at)) firstSeen[armSinceAttribute(entry.step)] = at;
    }
    // The step entered after it: the next entry's, or the run's current step unless the run ended on leaving (a
    // null edge leaves `step_id` on the step it left; the path holds each step once).
    const next = left[i + 1]?.step ?? (passed.has(stepId) ? undefined : stepId);
    if (typeof next === 'string') step(next, day, { entered: 1 });
  });
  const status = now['status'];
  const ended = status === 'completed' || status === 'exited' || status === 'ended';
  if (ended && (!old || IN_FLIGHT.has(old['status'] as string)))
    step(stepId, dayOf(now['ended_at']) ?? dayOf(now['updated_at']), { [status]: 1 });
  const oldStep = old?.['step_id'];
  if (old && IN_FLIGHT.has(old['status'] as string) && typeof oldStep === 'string')
    gauge[`${GAUGE_PREFIX}${oldStep}`] = -1;
  if (IN_FLIGHT.has(status as string)) {
    const name = `${GAUGE_PREFIX}${stepId}`;
    gauge[name] = (gauge[name] ?? 0) + 1;
  }
  const moved = Object.fromEntries(Object.entries({ ...gauge, ...armsTaken }).filter(([, n]) => n !== 0));
  const day = dayOf(now['updated_at']) ?? dayOf(now['created_at']);
  if (Object.keys(moved).length > 0 && day)
    deltas.push({
      clientId,
      day,
      row: { journeyGauge: journeyId },
      adds: moved,
      ...(Object.keys(firstSeen).length > 0 ? { firstSeen } : {}),
    });
  return deltas;
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
export const counterRowKey = (delta: Pick<CounterDelta, 'clientId' | 'day' | 'row'>): string => {
  const row = delta.row;
  if ('journeyGauge' in row) return `${delta.clientId}#NOW#J${row.journeyGauge}`;
  if ('segmentGauge' in row) return `${delta.clientId}#NOW#S${row.segmentGauge}`;
  if ('broadcastLink' in row) return `${delta.clientId}#B${row.broadcastLink}#L${row.link}`;
  if ('broadcast' in row)
    return `${delta.clientId}#B${row.broadcast}${row.variant === undefined ? '' : `#V${row.variant}`}`;
  if ('journeyId' in row) return `${delta.clientId}#${delta.day}#J${row.journeyId}#${row.stepId}`;
  return `${delta.clientId}#${delta.day}#${'workflowId' in row ? `W${row.workflowId}` : `E${row.eventType}`}`;
};

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
    if (delta.adds) {
      into.adds ??= {};
      for (const [name, value] of Object.entries(delta.adds)) into.adds[name] = (into.adds[name] ?? 0) + value;
    }
    if (delta.firstSeen) {
      into.firstSeen ??= {};
      for (const [name, at] of Object.entries(delta.firstSeen))
        into.firstSeen[name] = Math.min(into.firstSeen[name] ?? at, at);
    }
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
