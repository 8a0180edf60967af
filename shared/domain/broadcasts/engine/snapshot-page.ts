import type { BroadcastMessage } from '../../../platform.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../executions/execution-record.js';
import type { SettingsRecord } from '../../settings/settings-store.js';
import { subscribedToTopic } from '../../topics/contact-topics.js';
import type { TopicSet } from '../../topics/topic-store.js';
import { type AudienceCandidate, audienceSourceOf, type EngineBroadcast } from '../recipient-store.js';
import { dueOf } from './due-of.js';
import { startPacing } from './pacer.js';
import type { EngineDeps } from './start.js';
import { placementOf } from './variant-of.js';

/** Recipients a page writes: with the shard's progress and the head's check, one transaction of at most 100 items. */
export const SNAPSHOT_PAGE = 98;
/** Draws of a page's ids whose block met a taken id (never, unless an id was written by hand). */
const ID_DRAWS = 3;
/** States in which the snapshot goes on: a pause holds the sends, not the writing of the audience. */
const SNAPSHOT_GOES_ON = new Set(['snapshotting', 'sending', 'paused']);

/**
 * One page of one source shard of a broadcast's audience: the shard's progress (`after`) read, up to 99 candidates
 * after it read in contact-id order, each made a recipient — its variant (hash), its due time (the schedule in its
 * zone, then the client's send rules), its queued execution — and all of them written with the progress moved in one
 * transaction conditioned on the progress read (and on the head still taking recipients: a cancel meanwhile stops the
 * page, so nothing is written behind the cancel job). A page commits whole or not at all; a duplicate or redelivered page
 * finds the progress moved and writes nothing, so each contact of the audience gets exactly one recipient. Then the
 * next page's message; after the shard's last, its total is added to the head once, and the last shard done moves the
 * head to sending and starts the pacer.
 * Requests a page: 1 BatchGetItem, 1 Query, 1 UpdateItem (the page's block of ids), 1 TransactWriteItems, 1 SendMessage
 * (+ at a shard's end 1–2 UpdateItem).
 */
export async function snapshotPage(deps: EngineDeps, message: BroadcastMessage): Promise<string> {
  const { client_id: clientId, broadcast_id: broadcastId } = message;
  const shard = message.shard ?? 0;
  const context = await deps.recipients.pageContext(clientId, broadcastId, shard);
  const head = context.head;
  if (!head || !SNAPSHOT_GOES_ON.has(head.status) || !head.started_at) return 'stopped';
  const progress = context.shard ?? { n: 0, done: false };
  if (progress.done) return finishShard(deps, head, shard, progress.n);
  const page = await deps.recipients.audiencePage(
    clientId,
    audienceSourceOf(head),
    shard,
    progress.after,
    SNAPSHOT_PAGE,
  );
  const now = deps.clock.now();
  const taken = page.candidates.filter((c) => inAudience(head, c, context.topics));
  let outcome: Awaited<ReturnType<typeof deps.recipients.writePage>> = 'collision';
  for (let draw = 0; draw < ID_DRAWS && outcome === 'collision'; draw++) {
    // One block of ids a page (time-ordered ids drawn in one millisecond by 16 chains at once would collide).
    const first = taken.length > 0 ? await deps.ids.next('broadcast_recipient', taken.length) : 0;
    const recipients = taken.map((c, i) => recipientOf(head, c, first + i, context.settings, now));
    outcome = await deps.recipients.writePage(
      head,
      shard,
      progress.after,
      { ...(page.last !== undefined ? { last: page.last } : {}), end: page.end, at: now.toISOString() },
      recipients,
    );
  }
  if (outcome === 'collision')
    throw new Error(`broadcast ${clientId}/${broadcastId} shard ${shard}: ids kept colliding`);
  if (outcome === 'moved') return 'duplicate';
  if (outcome === 'stopped') return 'stopped';
  if (page.end) return finishShard(deps, head, shard, progress.n + taken.length);
  await deps.queue.send('broadcast', { client_id: clientId, broadcast_id: broadcastId, kind: 'snapshot', shard });
  return 'page';
}

/**
 * A topic's audience is its subscribers (their own choice, else the topic's default) among the subscribed; "all
 * subscribed" is every subscribed contact; a segment's is every member: one who unsubscribed or was suppressed since
 * is still written, and the send skips it with its reason.
 */
function inAudience(head: EngineBroadcast, candidate: AudienceCandidate, topics: TopicSet | undefined): boolean {
  const audience = head.definition.audience;
  // A resend's candidates are the parent's recipients its source already chose (sent, never opened by a person).
  if (head.kind === 'resend' || 'segment_id' in audience) return true;
  const contact = candidate.contact;
  if (!contact?.is_subscribed) return false;
  if ('all_subscribed' in audience) return true;
  const topic = topics?.topics.find((t) => t.id === audience.topic_id);
  return topic !== undefined && subscribedToTopic(contact, topic);
}

/** One recipient: an execution of no workflow (0) carrying its broadcast, variant, category, topic and due time. */
export function recipientOf(
  head: EngineBroadcast,
  candidate: AudienceCandidate,
  id: number,
  settings: SettingsRecord | undefined,
  now: Date,
): ExecutionRecord {
  const definition = head.definition;
  // A resend is no test: each non-opener gets what the parent sent it.
  const test = head.kind === 'resend' ? undefined : definition.ab?.test_percent;
  const placed = placementOf(head.id, candidate.contact_id, definition.variants.length, test);
  // A holdout waits for the winner: its template and subject are the winner's, read from the head when it is sent.
  const content = 'variant' in placed ? definition.variants[placed.variant]! : undefined;
  const due = dueOf({
    schedule: definition.schedule,
    startedAt: new Date(head.started_at!),
    contactZone: candidate.contact?.timezone ?? candidate.zone,
    settings,
  });
  const at = now.toISOString();
  const topicId = 'topic_id' in definition.audience ? definition.audience.topic_id : definition.topic_id;
  return {
    id,
    client_id: head.client_id,
    workflow_id: 0,
    contact_id: candidate.contact_id,
    event_id: null,
    status: due.sendable ? EXECUTION_STATUS.queued : EXECUTION_STATUS.skipped,
    ...(due.sendable ? {} : { processed_at: at }),
    ...(due.reason ? { reason: due.reason } : {}),
    is_test: false,
    attempt: 1,
    // A resend sends each non-opener the template the parent sent it.
    template_id: candidate.template_id || (content?.template_id ?? 0),
    priority_score: definition.priority_score ?? DEFAULT_BROADCAST_PRIORITY,
    critical: false,
    cap_day: due.capDay,
    scheduled_for: due.at.toISOString(),
    send_zone: due.zone,
    broadcast_id: head.id,
    ...('variant' in placed
      ? { variant: placed.variant, ...(test !== undefined ? { ab_test: true } : {}) }
      : { holdout: true }),
    category: definition.category,
    ...(definition.category === 'marketing' && topicId !== null ? { topic_id: topicId } : {}),
    ...(content?.subject ? { subject_override: content.subject } : {}),
    created_at: at,
    updated_at: at,
  };
}

/** Below the workflows' 50: a lifecycle e-mail wins a contact's daily cap over a broadcast. */
export const DEFAULT_BROADCAST_PRIORITY = 30;

/**
 * A shard's end: its total added to the head once; when that made every shard done (or a redelivery finds them all
 * done), the head moves snapshotting → sending and the pacer starts. A head paused or resumed meanwhile keeps its
 * state: a sending one gets a pacer message (the pacer waits for the snapshot's end before it calls the broadcast
 * sent), a paused one none (resume sends it).
 */
async function finishShard(deps: EngineDeps, head: EngineBroadcast, shard: number, n: number): Promise<string> {
  const at = deps.clock.now().toISOString();
  const after =
    (await deps.recipients.finishShard(head, shard, n, at)) ?? (await deps.recipients.head(head.client_id, head.id));
  if (!after?.snapshot || after.snapshot.done.length < after.snapshot.sources) return 'shard_done';
  if (after.status === 'snapshotting') {
    // Refused: another shard's end came first (it starts the pacer), or this write's own first attempt did.
    if (!(await deps.recipients.beginSending(after, at))) {
      const again = await deps.recipients.head(head.client_id, head.id);
      if (again?.status !== 'sending') return 'shard_done';
    }
  } else if (after.status !== 'sending') {
    return 'snapshot_done';
  }
  await startPacing(deps, after);
  return 'snapshot_done';
}
