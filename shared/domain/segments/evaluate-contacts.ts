import type { Clock, Queue } from '../../platform.js';
import { distinctIdsAt } from '../ids/time-ordered-id.js';
import type { TopicSet } from '../topics/topic-store.js';
import { segmentHolds } from './definition/evaluate.js';
import { nextEdgeOf } from './definition/next-edge.js';
import { engagementSourcesOf } from './definition/specs.js';
import type { CompiledSegment } from './definition/types.js';
import { segmentEventsOf, segmentTriggersOf } from './segment-events.js';
import type {
  ContactSegmentRead,
  MembershipStore,
  MembershipTransition,
  SegmentIndex,
  SegmentState,
} from './membership-store.js';

export interface EvaluateContactsDeps {
  membership: MembershipStore;
  clock: Clock;
  /**
   * Enqueues the segment events a transition wrote. Absent (a caller whose client has no live segment journey, as the
   * backfill's pages, which write none) or failing: the events sweep enqueues what is stored queued.
   */
  queue?: Pick<Queue, 'send'>;
  log?: (message: string, error: unknown) => void;
}

export interface EvaluateContactsOptions {
  /**
   * Evaluate only this segment (a backfill page fills one segment at the version being built): the contact's other
   * memberships and its stored edge stay as they are.
   */
  segment?: CompiledSegment;
}

export interface EvaluateContactsResult {
  evaluated: number;
  entered: number;
  left: number;
  /** Contacts whose state was written (a membership, its zone or its edge moved). */
  written: number;
}

/** Reads and commits of one message before it fails and comes back (each retry only re-reads the contacts that moved). */
const MAX_TRIES = 3;

/**
 * Evaluates contacts against the client's segments and writes what moved (docs/decisions: membership kept per
 * contact). One BatchGetItem wave reads each contact with its counters and state (strong reads, so any order of
 * messages converges on the contact's last state); each contact whose memberships, zone or edge moved gets its state
 * and member entries in one transaction conditioned on the state read, transactions packed up to 100 items. A contact
 * whose state moved meanwhile (another evaluator, a backfill page) is read and decided again; after three tries the
 * message fails and SQS delivers it again. Nothing moved: no write. Requests for 25 contacts: 1 BatchGetItem (+ 1
 * TransactWriteItems when some moved).
 */
export async function evaluateContacts(
  deps: EvaluateContactsDeps,
  clientId: number,
  contactIds: readonly number[],
  options: EvaluateContactsOptions = {},
): Promise<EvaluateContactsResult> {
  const result: EvaluateContactsResult = { evaluated: 0, entered: 0, left: 0, written: 0 };
  let pending = [...new Set(contactIds)];
  // A backfill's segment (a version the index may not hold yet) reads its own engagement sources.
  const sources = options.segment ? engagementSourcesOf([options.segment.definition]) : [];
  const readOptions = sources.length > 0 ? { sources } : {};
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    let read = await deps.membership.read(clientId, pending, readOptions);
    // A cached index older than a contact's state (a segment a backfill entered it in, under a version the copy does
    // not have yet) would take the contact out again: such a message reads the index strongly instead.
    if (!options.segment && read.contacts.some((c) => indexLags(read.index, c.state)))
      read = await deps.membership.read(clientId, pending, { freshIndex: true });
    if (attempt === 1) result.evaluated = read.contacts.length;
    const now = deps.clock.now();
    // A backfill fills a segment with the contacts already in it: no journey run starts for them (only a move the
    // stream or the edges sweep finds after the journey went live does).
    const triggers = options.segment ? new Set<string>() : segmentTriggersOf(read.journeyIndex);
    const drawId = distinctIdsAt(now);
    const transitions = read.contacts.flatMap((contact) => {
      const transition = transitionOf(clientId, contact, read.index, read.topics, now, options.segment);
      if (!transition) return [];
      const events = segmentEventsOf(transition, contact.contact, triggers, now, drawId);
      return [events.length > 0 ? { ...transition, events } : transition];
    });
    if (transitions.length === 0) break;
    const { conflicts } = await deps.membership.commit(transitions);
    const moved = new Set(conflicts);
    const written: MembershipTransition[] = [];
    for (const t of transitions) {
      if (moved.has(t.contactId)) continue;
      written.push(t);
      result.written += 1;
      result.entered += t.entered.length;
      result.left += t.left.length;
    }
    await enqueueEvents(deps, written);
    if (moved.size > 0 && attempt >= MAX_TRIES)
      throw new Error(`segment state of ${moved.size} contacts kept moving; the message comes back`);
    pending = [...moved];
  }
  return result;
}

/**
 * The committed transitions' segment events go to the events queue, as an accepted event does; a failed send is
 * logged, not thrown: the event is stored queued, and the events sweep enqueues it after two minutes.
 */
async function enqueueEvents(deps: EvaluateContactsDeps, written: readonly MembershipTransition[]): Promise<void> {
  const events = written.flatMap((t) => t.events ?? []);
  const queue = deps.queue;
  if (!queue) return;
  await Promise.all(
    events.map(async (event) => {
      try {
        await queue.send('events', { client_id: event.client_id, event_id: event.id });
      } catch (error) {
        (deps.log ?? console.warn)('segment event enqueue failed; the events sweep will enqueue it', error);
      }
    }),
  );
}

/** Whether the index lacks a segment the state holds, or holds it at an older version than the state entered under. */
export function indexLags(index: SegmentIndex | undefined, state: SegmentState | undefined): boolean {
  if (!state) return false;
  const versions = new Map((index?.segments ?? []).map((s) => [s.id, s.version]));
  return Object.entries(state.members).some(([id, version]) => (versions.get(Number(id)) ?? 0) < version);
}

/**
 * What one contact's evaluation writes, or undefined when nothing moved (pure). A gone contact leaves every segment
 * and its state goes. Otherwise each segment of the index (or the one segment of a backfill) is decided on the
 * contact as read; a segment no longer in the index is left. The state is written when a membership or the zone moved,
 * or when the next edge moved earlier, or when the stored edge is due (it moves later, or goes): an edge stored too
 * early only costs one evaluation, so a later one is never written on its own.
 */
export function transitionOf(
  clientId: number,
  read: ContactSegmentRead,
  index: SegmentIndex | undefined,
  topics: TopicSet | undefined,
  now: Date,
  only?: CompiledSegment,
): MembershipTransition | undefined {
  const state = read.state;
  const before = state?.members ?? {};
  const at = now.toISOString();
  const base = { clientId, contactId: read.contactId, svRead: state?.sv, at };
  if (!read.contact) {
    if (!state) return undefined;
    return { ...base, state: null, entered: [], rezoned: [], left: Object.keys(before).map(Number) };
  }
  const input = {
    contact: read.contact,
    ...(read.counters ? { counters: read.counters } : {}),
    ...(read.engagement ? { engagement: read.engagement } : {}),
    ...(topics ? { topics } : {}),
  };
  const segments = only ? [only] : (index?.segments ?? []);
  const members: Record<number, number> = only ? { ...before } : {};
  for (const segment of segments) {
    // A backfill marks the version it fills (so an evaluator holding an older index knows its copy lags); an
    // evaluation keeps the version a member entered under (no write when nothing else moved).
    if (segmentHolds(segment.definition, input, now))
      members[segment.id] = only ? segment.version : (before[segment.id] ?? segment.version);
    else delete members[segment.id];
  }
  const isIn = (members_: Record<number, number>) => (id: number) => members_[id] !== undefined;
  const ids = (members_: Record<number, number>) => Object.keys(members_).map(Number);
  const entered = ids(members).filter((id) => !isIn(before)(id));
  const left = ids(before).filter((id) => !isIn(members)(id));
  const zone = read.contact.timezone;
  const zoneMoved = state !== undefined && state.z !== zone;
  const rezoned = zoneMoved ? ids(members).filter((id) => isIn(before)(id)) : [];

  const stored = state?.next_eval_at;
  const edge = only
    ? stored
    : nextEdgeOf(
        (index?.segments ?? []).map((s) => s.definition),
        input,
        now,
      )?.toISOString();
  const edgeMoved =
    edge !== stored &&
    (stored === undefined ? edge !== undefined : stored <= at || (edge !== undefined && edge < stored));
  const versionMoved = ids(members).some((id) => isIn(before)(id) && before[id] !== members[id]);
  const membershipMoved = entered.length + left.length + rezoned.length > 0 || versionMoved;
  if (!membershipMoved && !edgeMoved) return undefined;
  const next: SegmentState = {
    sv: (state?.sv ?? 0) + 1,
    members,
    ...(zone !== undefined ? { z: zone } : {}),
    ...(edge !== undefined ? { next_eval_at: edge } : {}),
  };
  return { ...base, state: next, entered, rezoned, left };
}
