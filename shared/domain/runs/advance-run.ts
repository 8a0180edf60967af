import type { Clock, JourneyTime, RunMessage } from '../../platform.js';
import type { ContactStore } from '../contacts/contact-store.js';
import { dispatchExecution, dispatchRun, type DispatchDeps } from '../engine/dispatch.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../executions/execution-record.js';
import { timeOrderedId } from '../ids/time-ordered-id.js';
import { followLiveVersion } from '../journeys/definition/successor.js';
import type { JourneyDefinition, StepId } from '../journeys/definition/types.js';
import type { JourneyVersionRecord } from '../journeys/journey-records.js';
import { RUN_ENDED_STATUSES, type RunEndReason, type RunRecord } from './run-record.js';
import type { RunReads, RunStore, RunTransition } from './run-store.js';
import { engagementEmailIds, SEND_CHECK_AFTER_MS, segmentIdsAhead, walkSteps, type WalkStart } from './walk-steps.js';

export interface AdvanceDeps extends DispatchDeps {
  clock: Clock;
  runs: RunStore;
  /** Custom field ids by name for update_contact (defined when new, as a contact write defines them). */
  contacts: Pick<ContactStore, 'customFieldIds'>;
  /** How long a wait's minute lasts; absent: a real minute. */
  journeyTime?: JourneyTime;
}

/** A journey minute as it lasts everywhere but in a local runtime sped up for tests (a real one). */
export const REAL_JOURNEY_MINUTE_MS = 60_000;

export type AdvanceOutcome =
  /** Nothing written: no such run, a message for an older seq, a run already ended, or early (sent back for its time). */
  | { kind: 'missing' | 'stale' | 'ended' | 'not_due' }
  /** Only the due time moved (seq kept): the journey is paused, or the send step's e-mail has not ended yet. */
  | { kind: 'held'; reason: 'journey_paused' | 'send_pending'; due_at: string }
  /** One step transition (seq + 1). */
  | { kind: 'moved'; run: RunRecord; executions: ExecutionRecord[] };

/** A paused journey's runs look again this often (as a paused client's executions do). */
export const PAUSED_RUN_RECHECK_MS = 60 * 60 * 1000;

/** Reads again when the contact changed under an update_contact step's write. */
const MAX_ATTEMPTS = 3;

/** Execution statuses that still lead to a send: the run waits for them to end. */
const PENDING_EXECUTION = new Set<number>([EXECUTION_STATUS.queued, EXECUTION_STATUS.executing]);

/**
 * Moves one run of a journey for a message {run, seq} (advance-runs). Reads the run with its contact, the client's
 * configuration and journey index, the send step's execution it waits on, the counted engagement an engagement
 * branch reads, the contact's segment memberships a segment branch reads (its SEGSTATE item, only when a branch
 * ahead names a segment) and the version the message names — one BatchGet when the message carries its hints
 * (versions are cached per container: a warm one reads none). A message for another seq, an ended run, or one early
 * does nothing (early: sent back for the run's due time). A paused journey, or a send whose e-mail has not ended, only
 * moves the due time. Otherwise the run follows the journey's live version,
 * runs its current step and every instant step after it, and writes it all in ONE transaction whose first item is the
 * run conditioned on its seq (and status active or waiting) — so a late, early or repeated message, or an event and a
 * timeout racing, move it at most once. Then it is dispatched for its new seq at its due time (and a send's execution
 * for its send time).
 *
 * Requests, a transition: 1 BatchGetItem + 1 TransactWriteItems, the container's version cache cold or warm (a message
 * without hints reads once more; a version it neither names nor finds cached — a publish since it was sent — once
 * more) + 1 SQS SendMessage or Scheduler CreateSchedule (at a send: the execution's, the run's next due time being
 * the RUNDUE safety net only).
 *
 * Crash safety: a worker dying before the transaction leaves the message to SQS, which delivers it again. One dying
 * after it and before its dispatch (or a transaction that committed but whose answer was lost) leaves the run with
 * its RUNDUE index entry at its due time: sweep-runs (every 5 minutes) sends every run due more than 2 minutes ago
 * its current seq, so the run moves at most ~7 minutes late and never twice.
 */
export async function advanceRun(deps: AdvanceDeps, message: RunMessage): Promise<AdvanceOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await attemptAdvance(deps, message);
    if (outcome !== 'contact_changed') return outcome;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`run ${message.run_id}: its contact kept changing`);
  }
}

async function attemptAdvance(deps: AdvanceDeps, message: RunMessage): Promise<AdvanceOutcome | 'contact_changed'> {
  const now = deps.clock.now();
  const clientId = message.client_id;
  const reads = await deps.runs.read(clientId, {
    runId: message.run_id,
    config: true,
    ...(message.contact_id !== undefined ? { contactId: message.contact_id } : {}),
    ...(message.execution_id !== undefined ? { executionId: message.execution_id } : {}),
    ...(message.sent_email_ids ? { sentEmailIds: message.sent_email_ids } : {}),
    ...(message.segment_ids && message.contact_id !== undefined
      ? { segments: { contactId: message.contact_id, segmentIds: message.segment_ids } }
      : {}),
    ...(message.journey_id !== undefined && message.version !== undefined
      ? { versions: { journeyId: message.journey_id, versions: [message.version] } }
      : {}),
  });
  const run = reads.run;
  if (!run) return { kind: 'missing' };
  if (run.seq !== message.seq) return { kind: 'stale' };
  if (RUN_ENDED_STATUSES.includes(run.status)) return { kind: 'ended' };

  const journey = reads.index?.journeys.find((j) => j.id === run.journey_id);
  const live = journey && !run.pinned && journey.live_version > run.version ? journey.live_version : run.version;
  const versions = await versionsOf(deps, run, range(run.version, live), reads);
  const own = versions.find((v) => v.version === run.version);

  // An early message (a duplicate) goes back for the due time before anything more is read.
  const awaited = run.wait?.kind === 'send' ? run.wait.execution_id : undefined;
  const awaitedRead = awaited === undefined || reads.execution?.id === awaited;
  if (awaitedRead && positionOf(run, reads, now) === 'not_due') {
    await dispatchRun(deps, messageFor(run, own?.definition), new Date(run.due_at!), now);
    return { kind: 'not_due' };
  }

  // What the hints did not bring: the run's contact, the execution its send step waits on, and the counted
  // engagement the branches of the version it will be on read.
  const ahead = journey ? placeOf(run, versions) : undefined;
  const wantedEmails = ahead && !('ended' in ahead) ? engagementEmailIds(run, ahead.definition, ahead.stepId) : [];
  // The segment branches ahead read the run's contact's memberships: those the hint did not bring (or brought for
  // another contact) are read with the rest, in the same request.
  const wantedSegments = ahead && !('ended' in ahead) ? segmentIdsAhead(ahead.definition, ahead.stepId) : [];
  const segmentsRead = message.contact_id === run.contact_id ? (reads.segments ?? {}) : {};
  const missingSegments = wantedSegments.filter((id) => segmentsRead[id] === undefined);
  const more = {
    ...(reads.contact?.id !== run.contact_id ? { contactId: run.contact_id } : {}),
    ...(!awaitedRead ? { executionId: awaited } : {}),
    sentEmailIds: wantedEmails.filter((id) => reads.engagement[id] === undefined),
    ...(missingSegments.length > 0 ? { segments: { contactId: run.contact_id, segmentIds: missingSegments } } : {}),
  };
  const segments: Record<number, boolean> = { ...segmentsRead };
  if (
    more.contactId !== undefined ||
    more.executionId !== undefined ||
    more.sentEmailIds.length > 0 ||
    more.segments !== undefined
  ) {
    const extra = await deps.runs.read(clientId, { config: false, ...more });
    if (more.contactId !== undefined) reads.contact = extra.contact;
    if (more.executionId !== undefined) reads.execution = extra.execution;
    Object.assign(reads.engagement, extra.engagement);
    Object.assign(segments, extra.segments);
  }

  const position = positionOf(run, reads, now);
  if (position === 'not_due') {
    await dispatchRun(deps, messageFor(run, own?.definition), new Date(run.due_at!), now);
    return { kind: 'not_due' };
  }

  // The service stops a run at its next step: its contact erased, its journey archived (gone from the index).
  if (!reads.contact) return end(deps, run, 'contact_erased', now);
  if (!journey) return end(deps, run, 'journey_archived', now);
  if (journey.status === 'paused') return hold(deps, run, reads, own, 'journey_paused', now);
  if (position === 'send_pending') return hold(deps, run, reads, own, 'send_pending', now);

  const place = ahead ?? placeOf(run, versions);
  if ('ended' in place) return end(deps, run, place.ended, now);
  // A step whose kind changed in the version followed is entered afresh rather than left by an edge it lacks.
  const step = place.definition.steps.find((s) => s.id === place.stepId);
  const start: WalkStart =
    position.enter || place.stepId !== run.step_id || step?.type !== stepTypeOf(own?.definition, run.step_id)
      ? { enter: true }
      : { enter: false, by: position.by };

  const walked = await walkSteps({
    run,
    version: place.version,
    pinned: place.pinned,
    definition: place.definition,
    stepId: place.stepId,
    start,
    journey,
    contact: reads.contact,
    settings: reads.settings,
    topics: reads.topics,
    clientOpenHours: reads.clientOpenHours,
    engagement: reads.engagement,
    segments,
    now,
    minuteMs: deps.journeyTime?.minuteMs ?? REAL_JOURNEY_MINUTE_MS,
    drawId: () => timeOrderedId(now),
    customFieldIds: (names) => deps.contacts.customFieldIds(clientId, names),
  });
  const transition: RunTransition = {
    run: walked.run,
    expectedSeq: run.seq,
    ...(walked.contact ? { contact: walked.contact } : {}),
    ...(walked.executions.length > 0 ? { executions: walked.executions } : {}),
    ...(walked.ended ? { releaseLock: lockOf(run) } : {}),
  };
  const written = await deps.runs.transition(transition);
  if (written === 'stale') return { kind: 'stale' };
  if (written === 'contact_changed') return 'contact_changed';

  const queued = walked.executions.filter((e) => e.status === EXECUTION_STATUS.queued);
  await Promise.all([
    ...queued.map((e) =>
      dispatchExecution(deps, { client_id: clientId, execution_id: e.id }, new Date(e.scheduled_for), now),
    ),
    // At a send the execution's message is the one sent: its end wakes the run, and RUNDUE is the safety net.
    ...(walked.ended || walked.run.wait?.kind === 'send'
      ? []
      : [
          dispatchRun(
            deps,
            messageFor(walked.run, place.definition),
            new Date(walked.run.due_at ?? now.toISOString()),
            now,
          ),
        ]),
  ]);
  return { kind: 'moved', run: walked.run, executions: walked.executions };
}

type Position = { enter: true } | { enter: false; by: 'next' | 'on_event' | 'on_timeout' } | 'not_due' | 'send_pending';

/**
 * Where the run stands for this message. Without a wait its current step is to run (once due). In a wait, a time
 * wait is over once due; a send step is over once its execution ended (woken by the executor, or found so at the
 * safety net); a wait_for_event is over by its event (event processing resumed the run: active, `resumed_by`) or by
 * its timeout (still waiting, due).
 */
function positionOf(run: RunRecord, reads: RunReads, now: Date): Position {
  const due = run.due_at === undefined || Date.parse(run.due_at) <= now.getTime();
  const wait = run.wait;
  if (!wait) return due ? { enter: true } : 'not_due';
  switch (wait.kind) {
    case 'send': {
      const execution = reads.execution;
      if (!execution || !PENDING_EXECUTION.has(execution.status)) return { enter: false, by: 'next' };
      return due ? 'send_pending' : 'not_due';
    }
    case 'wait_for_event':
      if (run.status === 'active' && run.resumed_by) return { enter: false, by: 'on_event' };
      return due ? { enter: false, by: 'on_timeout' } : 'not_due';
    default:
      return due ? { enter: false, by: 'next' } : 'not_due';
  }
}

/**
 * The version and step the run is at now: its own, or — when the index's live version is newer and the run is not
 * pinned — the live one as the publishers' moves lead it there (successor.ts).
 */
function placeOf(
  run: RunRecord,
  versions: readonly JourneyVersionRecord[],
): { version: number; stepId: StepId; pinned: boolean; definition: JourneyDefinition } | { ended: RunEndReason } {
  const sorted = [...versions].sort((a, b) => a.version - b.version);
  const after = sorted.filter((v) => v.version > run.version);
  let place = { version: run.version, step_id: run.step_id, pinned: run.pinned ?? false };
  if (after.length > 0) {
    const followed = followLiveVersion(
      { version: run.version, step_id: run.step_id, ...(run.pinned ? { pinned: true } : {}) },
      after,
    );
    if ('ended' in followed) return { ended: followed.ended };
    place = { version: followed.version, step_id: followed.step_id, pinned: followed.pinned };
  }
  const record = sorted.find((v) => v.version === place.version);
  // A version the run names is never deleted; its absence is a store fault, not a rule: retried by the queue.
  if (!record) throw new Error(`run ${run.id}: version ${place.version} of journey ${run.journey_id} not found`);
  return { version: place.version, stepId: place.step_id, pinned: place.pinned, definition: record.definition };
}

const stepTypeOf = (definition: JourneyDefinition | undefined, stepId: StepId) =>
  definition?.steps.find((s) => s.id === stepId)?.type;

/**
 * The versions the run needs: those the read brought (the message named the run's journey and version), and the rest
 * — all of them without that hint, the newer ones after a publish since the message was sent — in one read more
 * unless the container has them.
 */
async function versionsOf(
  deps: AdvanceDeps,
  run: RunRecord,
  wanted: readonly number[],
  reads: RunReads,
): Promise<JourneyVersionRecord[]> {
  // A hint naming another journey or version (a message older than its seq says) brings nothing the run uses.
  const brought = (reads.versions ?? []).filter((v) => v.journey_id === run.journey_id && wanted.includes(v.version));
  const missing = wanted.filter((n) => !brought.some((v) => v.version === n));
  if (missing.length === 0) return brought;
  return [...brought, ...(await deps.runs.versions(run.client_id, run.journey_id, missing))];
}

/** Versions from..to, inclusive. */
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Only the due time moves (the seq stays: the executor's wake and a wait's marker name it), then a message for it. */
async function hold(
  deps: AdvanceDeps,
  run: RunRecord,
  reads: RunReads,
  own: JourneyVersionRecord | undefined,
  reason: 'journey_paused' | 'send_pending',
  now: Date,
): Promise<AdvanceOutcome> {
  const base =
    reason === 'send_pending' && reads.execution
      ? Math.max(now.getTime(), Date.parse(reads.execution.scheduled_for)) + SEND_CHECK_AFTER_MS
      : now.getTime() + PAUSED_RUN_RECHECK_MS;
  const held: RunRecord = { ...run, due_at: new Date(base).toISOString(), updated_at: now.toISOString() };
  const written = await deps.runs.transition({ run: held, expectedSeq: run.seq, hold: true });
  if (written !== 'committed') return { kind: 'stale' };
  await dispatchRun(deps, messageFor(held, own?.definition), new Date(held.due_at!), now);
  return { kind: 'held', reason, due_at: held.due_at! };
}

/** The service ends the run (archived journey, erased contact, a version that removed its step): no step runs. */
async function end(deps: AdvanceDeps, run: RunRecord, reason: RunEndReason, now: Date): Promise<AdvanceOutcome> {
  const at = now.toISOString();
  const { due_at: _due, wait, resumed_by: _resumed, ...rest } = run;
  const ended: RunRecord = { ...rest, seq: run.seq + 1, status: 'ended', reason, ended_at: at, updated_at: at };
  const contactGone = reason === 'contact_erased';
  const written = await deps.runs.transition({
    run: ended,
    expectedSeq: run.seq,
    ...(contactGone
      ? {}
      : {
          contact: {
            contactId: run.contact_id,
            removeRun: run.id,
            ...(wait?.kind === 'wait_for_event' ? { removeWait: run.id } : {}),
            at,
          },
        }),
    releaseLock: lockOf(run),
  });
  if (written === 'stale') return { kind: 'stale' };
  if (written === 'contact_changed') throw new Error(`run ${run.id}: its contact changed while it ended`);
  return { kind: 'moved', run: ended, executions: [] };
}

const lockOf = (run: RunRecord) => ({
  journeyId: run.journey_id,
  contactId: run.contact_id,
  ...(run.key_hash !== undefined ? { keyHash: run.key_hash } : {}),
});

/** The run's next message, with the hints that let its read take everything at once. */
function messageFor(run: RunRecord, definition: JourneyDefinition | undefined): RunMessage {
  const emails = definition ? engagementEmailIds(run, definition, run.step_id) : [];
  const segments = definition ? segmentIdsAhead(definition, run.step_id) : [];
  return {
    client_id: run.client_id,
    run_id: run.id,
    seq: run.seq,
    contact_id: run.contact_id,
    journey_id: run.journey_id,
    version: run.version,
    ...(run.wait?.kind === 'send' && run.wait.execution_id !== undefined
      ? { execution_id: run.wait.execution_id }
      : {}),
    ...(emails.length > 0 ? { sent_email_ids: emails } : {}),
    // The message's schema takes at most 100 (more: the second read brings them).
    ...(segments.length > 0 && segments.length <= 100 ? { segment_ids: segments } : {}),
  };
}
