import { JOURNEY_LIMITS } from '../../public/journey-rules.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { EventRecord } from '../events/event-record.js';
import { eventForConditions, runEventOf } from '../events/event-vars.js';
import { distinctIdsAt } from '../ids/time-ordered-id.js';
import { conditionsHold, eventMatchesTrigger, readEventPath } from '../journeys/definition/conditions.js';
import type { Reentry } from '../journeys/definition/types.js';
import type { IndexedJourney, JourneyIndex } from '../journeys/journey-records.js';
import { isSegmentEvent, segmentTriggerMet } from '../segments/segment-events.js';
import type { TopicSet } from '../topics/topic-store.js';
import { keyHashOf, runMarkersOf } from './match-waits.js';
import type { RunRecord } from './run-record.js';
import { runsInFlightOf } from './runs-counter.js';

/** How an event met a live journey it triggers: a run, or why none. */
export type JourneyEntryOutcome = 'entered' | 'in_flight' | 'reentry_window' | 'conditions' | 'runs_limit';

export interface JourneyEntry {
  journey_id: number;
  /** The run it started; null when none did. */
  run_id: number | null;
  outcome: JourneyEntryOutcome;
}

/**
 * The run lock an entry claims in the processing commit (keys.runLock), with the condition its re-entry rule sets:
 * `once` while no lock exists; `every_days` also over a lock whose run ended and was entered before `cutoff`;
 * `always` also over any lock whose run ended. A lock holds while its run is in flight (`active`).
 */
export interface RunLockClaim {
  journeyId: number;
  contactId: number;
  keyHash?: string;
  runId: number;
  reentry: Reentry['mode'];
  enteredAt: string;
  /** `every_days`: an ended run entered before this instant no longer holds the window. */
  cutoff?: string;
  /**
   * `every_days`: the lock's TTL (seconds): the end of its window plus LOCK_GRACE_DAYS, so the TTL never removes the
   * lock of a run still in flight (the condition, not the TTL, decides re-entry).
   */
  expiresAt?: number;
}

export interface PlannedEntries {
  /** The runs to start (each with `locks[i]`). */
  runs: RunRecord[];
  locks: RunLockClaim[];
  /** Live journeys the event triggers that start no run, and why. */
  refused: { journey_id: number; outcome: Exclude<JourneyEntryOutcome, 'entered'> }[];
}

export interface EntryContext {
  contact?: ContactRecord;
  journeyIndex?: JourneyIndex;
  topics?: TopicSet;
}

const DAY_MS = 86_400_000;
/**
 * Days an `every_days` lock outlives its window: longer than any one wait (≤ 365 days), so a run in flight keeps its
 * lock unless it spends more than this past the window; only then could a second run of its key start beside it.
 */
export const LOCK_GRACE_DAYS = 400;

/**
 * The runs an event starts: one per live journey of the client's index whose trigger it meets (at most
 * JOURNEY_LIMITS.liveJourneysPerTrigger), keyed by the trigger key's value when the trigger has a key (an event without
 * that value starts none: `conditions`), and while the contact is in fewer than JOURNEY_LIMITS.runsPerContact runs
 * (`runs_limit`). Each run claims its lock in the commit; a refused lock is the commit's to report (`in_flight`,
 * `reentry_window`). `decided`: journeys already refused by an earlier try of the same commit, kept so.
 */
export function planEntries(
  context: EntryContext,
  event: EventRecord,
  now: Date,
  decided: ReadonlyMap<number, Exclude<JourneyEntryOutcome, 'entered'>> = new Map(),
): PlannedEntries {
  const planned: PlannedEntries = { runs: [], locks: [], refused: [] };
  const contact = context.contact;
  if (!contact) return planned;
  const at = now.toISOString();
  const drawId = distinctIdsAt(now);
  const view = eventForConditions(event);
  let runsInFlight = runsInFlightOf(contact, runMarkersOf(contact).length);
  for (const journey of triggered(context, event, contact)) {
    const earlier = decided.get(journey.id);
    if (earlier) {
      planned.refused.push({ journey_id: journey.id, outcome: earlier });
      continue;
    }
    if (!triggerMet(journey, event, view, contact, context.topics)) {
      planned.refused.push({ journey_id: journey.id, outcome: 'conditions' });
      continue;
    }
    const keyValue = journey.trigger.key === undefined ? undefined : readEventPath(view, journey.trigger.key);
    if (journey.trigger.key !== undefined && (keyValue === undefined || keyValue === null)) {
      planned.refused.push({ journey_id: journey.id, outcome: 'conditions' });
      continue;
    }
    if (runsInFlight >= JOURNEY_LIMITS.runsPerContact) {
      planned.refused.push({ journey_id: journey.id, outcome: 'runs_limit' });
      continue;
    }
    runsInFlight += 1;
    const keyHash = keyValue === undefined ? undefined : keyHashOf(keyValue);
    const keyText = keyValue === undefined ? undefined : String(keyValue);
    const run: RunRecord = {
      id: drawId(),
      client_id: event.client_id,
      journey_id: journey.id,
      version: journey.live_version,
      contact_id: contact.id,
      event_id: event.id,
      ...(keyHash !== undefined ? { key_hash: keyHash } : {}),
      ...(keyText !== undefined && keyText.length <= JOURNEY_LIMITS.keyValueChars ? { key_value: keyText } : {}),
      status: 'active',
      step_id: journey.entry,
      seq: 1,
      step_entered_at: at,
      due_at: at,
      sends: {},
      branches: {},
      arms: {},
      path: [],
      event: runEventOf(event),
      created_at: at,
      updated_at: at,
    };
    planned.runs.push(run);
    planned.locks.push(lockClaimOf(journey, run, now));
  }
  return planned;
}

/**
 * The live journeys this event's type triggers, first published first, at most the per-trigger limit (publishing
 * keeps to it; the bound keeps the commit under DynamoDB's 100 items whatever the index holds). A journey whose
 * trigger names another type but whose `or_when` the event meets is triggered too.
 */
function triggered(context: EntryContext, event: EventRecord, contact: ContactRecord): IndexedJourney[] {
  const index = context.journeyIndex;
  if (!index) return [];
  const view = eventForConditions(event);
  // The membership engine's event triggers only the journeys on its segment and direction; a client's event never
  // triggers a segment journey.
  const segmentEvent = isSegmentEvent(event);
  return index.journeys
    .filter((j) => {
      if (j.status !== 'live') return false;
      if (j.trigger.segment !== undefined) return segmentTriggerMet(j.trigger.segment, event);
      return (
        !segmentEvent &&
        (j.trigger.event === event.type ||
          ((j.trigger.or_when?.length ?? 0) > 0 && eventMatchesTrigger(j.trigger, view, contact, context.topics)))
      );
    })
    .slice(0, JOURNEY_LIMITS.liveJourneysPerTrigger);
}

/** Whether a triggered journey's trigger holds: its segment move or event type, and its conditions. */
function triggerMet(
  journey: IndexedJourney,
  event: EventRecord,
  view: RunRecord['event'],
  contact: ContactRecord,
  topics: TopicSet | undefined,
): boolean {
  const segment = journey.trigger.segment;
  if (segment === undefined) return eventMatchesTrigger(journey.trigger, view, contact, topics);
  return (
    segmentTriggerMet(segment, event) &&
    conditionsHold(journey.trigger.conditions, { event: view, contact, ...(topics ? { topics } : {}) })
  );
}

function lockClaimOf(journey: IndexedJourney, run: RunRecord, now: Date): RunLockClaim {
  const reentry = journey.trigger.reentry;
  return {
    journeyId: journey.id,
    contactId: run.contact_id,
    ...(run.key_hash !== undefined ? { keyHash: run.key_hash } : {}),
    runId: run.id,
    reentry: reentry.mode,
    enteredAt: run.created_at,
    ...(reentry.mode === 'every_days'
      ? {
          cutoff: new Date(now.getTime() - reentry.days * DAY_MS).toISOString(),
          expiresAt: Math.floor((now.getTime() + (reentry.days + LOCK_GRACE_DAYS) * DAY_MS) / 1000),
        }
      : {}),
  };
}
