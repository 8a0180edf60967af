import { conflict, type ErrorItem, notFound, unprocessable } from '../../errors.js';
import type { Clock, Queue, Scheduler } from '../../platform.js';
import { BROADCAST_LIMITS } from '../../public/broadcast-rules.js';
import { dispatchBroadcast } from '../engine/dispatch.js';
import { journeyRefs } from '../journeys/journey-refs.js';
import type { SegmentStore } from '../segments/segment-store.js';
import { rateOf } from '../stats/highest-rate.js';
import type { StatCounts } from '../stats/stats-counters.js';
import type { TemplateStore } from '../templates/template-store.js';
import type { TopicStore } from '../topics/topic-store.js';
import type { BroadcastRecord, BroadcastStore, BroadcastTotalsRow } from './broadcast-store.js';
import { startOf } from './engine/start-of.js';
import { conversionEntryOf } from './conversions.js';
import type { BroadcastCreateBody, BroadcastDefinition, BroadcastView } from './schemas.js';

export interface BroadcastReadDeps {
  broadcasts: BroadcastStore;
}
export interface BroadcastWriteDeps extends BroadcastReadDeps {
  templates: TemplateStore;
  topics: TopicStore;
  segments: SegmentStore;
  queue: Queue;
  scheduler: Scheduler;
  clock: Clock;
}

/** The latest zone's offset: a `local_time` date is in the past once it has ended there too (UTC−12). */
const LATEST_OFFSET_MS = -12 * 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Every problem of a definition against the client's data, each at its body path: templates (a system template or a
 * live one of the client's), the topic, the segment; a topic only on marketing mail; a transactional broadcast only to
 * a segment (it ignores unsubscriptions, so it needs an audience chosen contact by contact); a schedule in the past or
 * beyond a year. Reads in one wave: the templates named, the topics, the segment.
 */
export async function definitionIssues(
  deps: Pick<BroadcastWriteDeps, 'templates' | 'topics' | 'segments'>,
  clientId: number,
  definition: BroadcastDefinition,
  now: Date,
): Promise<ErrorItem[]> {
  const audience = definition.audience;
  const [refs, segment] = await Promise.all([
    // Read as a journey draft names them: its send steps' templates, and the topics anywhere in it.
    journeyRefs(deps, clientId, [
      {
        steps: definition.variants.map((v) => ({ type: 'send', template_id: v.template_id })),
        audience,
        topic_id: definition.topic_id,
      },
    ]),
    'segment_id' in audience ? deps.segments.get(clientId, audience.segment_id) : undefined,
  ]);
  const issues: ErrorItem[] = [];
  const at = (key: string, condition: ErrorItem['condition'], error: string) =>
    issues.push({ condition, key: `definition.${key}`, error });
  definition.variants.forEach((variant, i) => {
    if (!refs.templateIds.has(variant.template_id))
      at(`variants.${i}.template_id`, 'reference', 'No such template: a system template (1–8) or a live one of yours');
  });
  if (definition.variants.length > 1 && definition.ab === undefined)
    at('ab', 'required', 'Variants are tested against each other: say on what share, on what and for how long');
  if (definition.variants.length === 1 && definition.ab !== undefined)
    at('ab', 'format', 'An A/B test needs at least 2 variants');
  if (definition.ab?.metric === 'conversions' && definition.conversion === undefined)
    at('conversion', 'required', 'A test on conversions needs the event that counts as one');
  if ('segment_id' in audience && !segment?.segment) at('audience.segment_id', 'reference', 'No such segment');
  if ('topic_id' in audience && !refs.topicIds.has(audience.topic_id))
    at('audience.topic_id', 'reference', 'No such topic');
  if (definition.topic_id !== null && !refs.topicIds.has(definition.topic_id))
    at('topic_id', 'reference', 'No such topic');
  if (definition.category === 'transactional') {
    if (!('segment_id' in audience))
      at(
        'audience',
        'read_only',
        'A transactional broadcast goes to a segment only (it does not skip unsubscribed contacts)',
      );
    if (definition.topic_id !== null) at('topic_id', 'read_only', 'Transactional mail is sent under no topic');
  }
  if ('topic_id' in audience && definition.topic_id !== null && definition.topic_id !== audience.topic_id)
    at(
      'topic_id',
      'format',
      "A topic audience's e-mail is sent under that topic: leave topic_id null or name the same",
    );
  const schedule = definition.schedule;
  const ahead = now.getTime() + BROADCAST_LIMITS.scheduleAheadDays * DAY_MS;
  if (schedule.mode === 'at') {
    const sendAt = Date.parse(schedule.send_at);
    if (sendAt < now.getTime() - 60_000) at('schedule.send_at', 'min', 'Must not be in the past');
    if (sendAt > ahead) at('schedule.send_at', 'max', `At most ${BROADCAST_LIMITS.scheduleAheadDays} days ahead`);
  }
  if (schedule.mode === 'local_time') {
    const midnight = Date.parse(`${schedule.date}T00:00:00Z`);
    const exists = !Number.isNaN(midnight) && new Date(midnight).toISOString().slice(0, 10) === schedule.date;
    if (!exists) at('schedule.date', 'format', 'Must be a date that exists (YYYY-MM-DD)');
    else if (schedule.date < new Date(now.getTime() + LATEST_OFFSET_MS).toISOString().slice(0, 10))
      at('schedule.date', 'min', 'Must be today or later (in the latest time zone)');
    else if (midnight > ahead) at('schedule.date', 'max', `At most ${BROADCAST_LIMITS.scheduleAheadDays} days ahead`);
  }
  return issues;
}

/** A topic audience sends under its topic. */
export const normalized = (definition: BroadcastDefinition): BroadcastDefinition =>
  'topic_id' in definition.audience && definition.topic_id === null
    ? { ...definition, topic_id: definition.audience.topic_id }
    : definition;

/** POST /client/broadcasts: a draft, every problem of its definition refused at once (422). */
export async function createBroadcast(
  deps: BroadcastReadDeps & Pick<BroadcastWriteDeps, 'templates' | 'topics' | 'segments' | 'clock'>,
  clientId: number,
  body: BroadcastCreateBody,
): Promise<BroadcastView> {
  const now = deps.clock.now();
  const issues = await definitionIssues(deps, clientId, body.definition, now);
  if (issues.length > 0) throw unprocessable(issues);
  const at = now.toISOString();
  const broadcast = await deps.broadcasts.create(clientId, {
    client_id: clientId,
    name: body.name,
    status: 'draft',
    draft_version: 1,
    definition: normalized(body.definition),
    created_at: at,
    updated_at: at,
  });
  return broadcastView(broadcast, undefined);
}

export async function getBroadcast(deps: BroadcastReadDeps, clientId: number, id: number): Promise<BroadcastView> {
  const { broadcast, totals, variants } = await deps.broadcasts.get(clientId, id);
  if (!broadcast) throw notFound('id', 'Broadcast not found');
  return broadcastView(broadcast, totals, variants);
}

/** The client's broadcasts, newest first (the latest 100). */
export async function listBroadcasts(
  deps: BroadcastReadDeps,
  clientId: number,
): Promise<{ broadcasts: BroadcastView[] }> {
  const rows = await deps.broadcasts.list(clientId, 100);
  return { broadcasts: rows.map((row) => broadcastView(row.broadcast, row.totals)) };
}

/**
 * POST …/schedule: the draft read (`draft_version`) becomes scheduled, its definition checked again against the
 * client's data now, with its live entry at its start; then the start message for that instant (SQS within 15
 * minutes, a schedule beyond). A crash between the two leaves the live entry: the sweep starts it once it is due.
 */
export async function scheduleBroadcast(
  deps: BroadcastWriteDeps,
  clientId: number,
  id: number,
  draftVersion: number,
): Promise<BroadcastView> {
  const { broadcast } = await deps.broadcasts.get(clientId, id);
  if (!broadcast) throw notFound('id', 'Broadcast not found');
  if (broadcast.status !== 'draft')
    throw conflict('state', 'status', `A ${broadcast.status} broadcast cannot be scheduled`);
  if (broadcast.draft_version !== draftVersion)
    throw conflict('state', 'draft_version', 'The draft changed since it was read: read it again');
  const now = deps.clock.now();
  const issues = await definitionIssues(deps, clientId, broadcast.definition, now);
  if (issues.length > 0) throw unprocessable(issues);
  const audience = broadcast.definition.audience;
  // Its segment is held from now until it is sent or cancelled (a delete meanwhile is 409); gone since the check: 422.
  if ('segment_id' in audience && !(await deps.segments.markBroadcastUse(clientId, audience.segment_id, id)))
    throw unprocessable([{ condition: 'reference', key: 'definition.audience.segment_id', error: 'No such segment' }]);
  const start = startOf(broadcast.definition.schedule, now);
  const startAt = (start < now ? now : start).toISOString();
  // Listed before the move: a crash between leaves an entry whose broadcast never sends (no recipient is found).
  const conversion = broadcast.definition.conversion;
  if (conversion) await deps.broadcasts.listConversion(clientId, conversionEntryOf(id, conversion, startAt), now);
  const moved = await deps.broadcasts.move({
    clientId,
    broadcastId: id,
    from: ['draft'],
    to: 'scheduled',
    at: now.toISOString(),
    draftVersion,
    set: { scheduled_at: startAt },
    liveAt: startAt,
  });
  if (!moved) throw conflict('state', 'status', 'The broadcast changed since it was read: read it again');
  await dispatchBroadcast(
    deps,
    { client_id: clientId, broadcast_id: id, kind: 'start', gen: draftVersion },
    new Date(startAt),
    now,
  );
  return broadcastView(moved, undefined);
}

/** POST …/pause: no recipient is released from now on (one already released waits again); resume carries on. */
export async function pauseBroadcast(
  deps: BroadcastReadDeps & { clock: Clock },
  clientId: number,
  id: number,
): Promise<BroadcastView> {
  const at = deps.clock.now().toISOString();
  const moved = await deps.broadcasts.move({
    clientId,
    broadcastId: id,
    from: ['snapshotting', 'sending'],
    to: 'paused',
    at,
    set: { paused_at: at },
  });
  return movedOrRefused(deps, clientId, id, moved, 'paused');
}

/** POST …/resume: paused → sending, and a pacer pass at once (recipients held by the pause come back). */
export async function resumeBroadcast(
  deps: BroadcastReadDeps & { queue: Queue; scheduler: Scheduler; clock: Clock },
  clientId: number,
  id: number,
): Promise<BroadcastView> {
  const now = deps.clock.now();
  const moved = await deps.broadcasts.move({
    clientId,
    broadcastId: id,
    from: ['paused'],
    to: 'sending',
    at: now.toISOString(),
    remove: ['paused_at'],
  });
  if (moved) await dispatchBroadcast(deps, { client_id: clientId, broadcast_id: id, kind: 'pace' }, now, now);
  return movedOrRefused(deps, clientId, id, moved, 'resumed');
}

/**
 * POST …/cancel: nothing more is sent; the recipients still waiting end `broadcast_cancelled` (a job, page by page;
 * the sender also ends any it meets). A sent broadcast or a draft is refused (409 `state`).
 */
export async function cancelBroadcast(
  deps: BroadcastReadDeps & { queue: Queue; scheduler: Scheduler; clock: Clock },
  clientId: number,
  id: number,
): Promise<BroadcastView> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const moved = await deps.broadcasts.move({
    clientId,
    broadcastId: id,
    from: ['scheduled', 'snapshotting', 'sending', 'paused'],
    to: 'cancelled',
    at,
    set: { cancelled_at: at },
    liveAt: at,
  });
  if (moved) await dispatchBroadcast(deps, { client_id: clientId, broadcast_id: id, kind: 'cancel' }, now, now);
  return movedOrRefused(deps, clientId, id, moved, 'cancelled');
}

async function movedOrRefused(
  deps: BroadcastReadDeps,
  clientId: number,
  id: number,
  moved: BroadcastRecord | undefined,
  what: string,
): Promise<BroadcastView> {
  if (moved) return broadcastView(moved, undefined);
  const { broadcast } = await deps.broadcasts.get(clientId, id);
  if (!broadcast) throw notFound('id', 'Broadcast not found');
  throw conflict('state', 'status', `A ${broadcast.status} broadcast cannot be ${what}`);
}

const count = (counts: Partial<StatCounts>, ...names: (keyof StatCounts)[]): number =>
  names.reduce((sum, name) => sum + (counts[name] ?? 0), 0);

export function broadcastView(
  broadcast: BroadcastRecord,
  totals: BroadcastTotalsRow | undefined,
  variants?: readonly BroadcastTotalsRow[],
): BroadcastView {
  const c = totals?.counts ?? {};
  const snapshot = broadcast.snapshot;
  return {
    id: broadcast.id,
    name: broadcast.name,
    status: broadcast.status,
    draft_version: broadcast.draft_version,
    definition: broadcast.definition,
    scheduled_at: broadcast.scheduled_at ?? null,
    started_at: broadcast.started_at ?? null,
    paused_at: broadcast.paused_at ?? null,
    cancelled_at: broadcast.cancelled_at ?? null,
    completed_at: broadcast.completed_at ?? null,
    kind: broadcast.kind ?? 'broadcast',
    parent_id: broadcast.parent_id ?? null,
    resend_id: broadcast.resend_id ?? null,
    recipients: snapshot && snapshot.done.length >= snapshot.sources ? snapshot.total : null,
    totals: {
      sent: count(c, 'sent'),
      delivered: count(c, 'delivered'),
      human_opens: count(c, 'opened'),
      human_clicks: count(c, 'clicked'),
      machine_opens: count(c, 'bot_opened'),
      machine_clicks: count(c, 'bot_clicked'),
      bounced: count(c, 'bounced_hard', 'bounced_soft'),
      complained: count(c, 'complained'),
      unsubscribed: count(c, 'unsubscribed_link', 'unsubscribed_ses', 'unsubscribed_suppression'),
      skipped: count(c, 'skipped'),
      failed: count(c, 'failed'),
      deferred: count(c, 'deferred'),
      conversions: count(c, 'converted'),
    },
    ab: abView(broadcast, variants),
    created_at: broadcast.created_at,
    updated_at: broadcast.updated_at,
  };
}

/** An A/B test's definition, winner and each variant's results (counted as the totals are); null without a test. */
function abView(broadcast: BroadcastRecord, variants: readonly BroadcastTotalsRow[] | undefined): BroadcastView['ab'] {
  const ab = broadcast.definition.ab;
  if (!ab) return null;
  const winner = broadcast.winner;
  return {
    test_percent: ab.test_percent,
    metric: ab.metric,
    decide_after_hours: ab.decide_after_hours,
    winner: winner?.variant ?? null,
    decided_at: winner?.decided_at ?? null,
    decided_rates: winner?.rates ?? null,
    variants: broadcast.definition.variants.map((content, variant) => {
      const c = variants?.[variant]?.counts ?? {};
      const delivered = count(c, 'delivered');
      return {
        variant,
        template_id: content.template_id,
        subject: content.subject ?? null,
        sent: count(c, 'sent'),
        delivered,
        human_opens: count(c, 'opened'),
        human_clicks: count(c, 'clicked'),
        machine_opens: count(c, 'bot_opened'),
        machine_clicks: count(c, 'bot_clicked'),
        bounced: count(c, 'bounced_hard', 'bounced_soft'),
        complained: count(c, 'complained'),
        unsubscribed: count(c, 'unsubscribed_link', 'unsubscribed_ses', 'unsubscribed_suppression'),
        skipped: count(c, 'skipped'),
        failed: count(c, 'failed'),
        human_open_rate: rateOf(count(c, 'opened'), delivered),
        human_click_rate: rateOf(count(c, 'clicked'), delivered),
        conversions: count(c, 'converted'),
        conversion_rate: rateOf(count(c, 'converted'), delivered),
      };
    }),
  };
}
