import type { Clock } from '../../platform.js';
import { planOf, effectiveLimits } from '../settings/effective-settings.js';
import { findWorkflow, WORKFLOW_IDS, workflowsTriggeredBy } from '../workflows/catalog.js';
import {
  conversionOf,
  conversionWindowDaysOf,
  exitEventsOf,
  exitsWorkflow,
  lastSentPlaceOf,
  openExecutionsOf,
} from '../workflows/goals.js';
import {
  dispatchExecution,
  dispatchRun,
  releaseExecutionSchedule,
  releaseRunSchedule,
  type DispatchDeps,
} from '../engine/dispatch.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../executions/execution-record.js';
import { planExecution } from '../executions/plan-execution.js';
import { distinctIdsAt } from '../ids/time-ordered-id.js';
import { matchWaits, runMarkersOf, waitMarkersOf, type WaitMatch } from '../runs/match-waits.js';
import { planEntries, type JourneyEntry, type JourneyEntryOutcome } from '../runs/plan-entries.js';
import { WAITS_VERSION_ATTRIBUTE } from '../runs/run-record.js';
import { runsCounterOf } from '../runs/runs-counter.js';
import { counterUpdateOf } from '../segments/definition/specs.js';
import { recordConversions } from '../broadcasts/conversions.js';
import { isSegmentEvent } from '../segments/segment-events.js';
import { contactChangesOf } from './contact-changes.js';
import { PROCESS_ERRORS, type ConvertedStep, type EventRecord } from './event-record.js';
import type { EventStore } from './event-store.js';
import { eventForConditions, eventVarsOf } from './event-vars.js';
import { journeysExitedBy } from './journey-exits.js';
import type { GoalCancellation, ProcessingContext, ProcessingStore, RunExit } from './processing-store.js';

export interface ProcessDeps extends DispatchDeps {
  clock: Clock;
  events: EventStore;
  processing: ProcessingStore;
  /**
   * Creates the contact of an event with `auto_create_contact`; returns its id (an existing one on a race), or
   * undefined when the address is a suppression marker an erasure left (it is never created again).
   */
  createContactFor(clientId: number, event: EventRecord): Promise<number | undefined>;
}

const MAX_ID_DRAWS = 5;
/** DynamoDB's bound on one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

const queued = (executions: ExecutionRecord[]) => executions.filter((e) => e.status === EXECUTION_STATUS.queued);

/**
 * Processes one event (DESIGN.md §8): resolve the contact, start one execution per enabled workflow the event
 * triggers, store the event as processed with them in one transaction, then dispatch each execution for its send
 * time. Safe to run twice for one event: a processed event only has its still-queued executions dispatched again.
 * Requests for an event that starts one workflow: event read, lock read, context read, commit (4 DynamoDB) + 1 SQS.
 * An exit event cancels the contact's queued executions of the workflows it exits in the same commit:
 * the contact item lists them (`open_<id>`) and keeps each workflow's last exit (`goal_w<id>`), which the send-time
 * check reads, so exits cost no request; a listed execution claimed meanwhile costs one more commit.
 * Client journeys ride the same four requests: the journey index comes with the context, the contact's `run_<id>`
 * and `wait_<id>` markers with the contact, and the commit also starts runs (each with its lock), resumes the waiting
 * runs the event matches and exits the runs of journeys it exits; then 1 SQS message per run started or resumed (and
 * a Scheduler delete per released timeout). A refused lock or a lost race costs one more commit without that item.
 */
export async function processEvent(
  deps: ProcessDeps,
  clientId: number,
  eventId: number,
): Promise<EventRecord | undefined> {
  const event = await deps.events.get(clientId, eventId);
  if (!event) return undefined;
  if (event.queue_status !== 'queued') {
    await redispatch(deps, event);
    return event;
  }
  // The membership engine's event names its contact by id: it starts segment journeys' runs and nothing else (no
  // workflow, exit, wait, counter or contact activity), so a segment's own moves never feed back into segments.
  const segmentEvent = isSegmentEvent(event);
  let contactId = segmentEvent
    ? event.contact_id
    : await deps.processing.findContactId(clientId, event.email ? { email: event.email } : { uid: event.uid! });
  // Every workflow's customization: any may list this event among its exit events (one request either way).
  let context = await deps.processing.loadContext(clientId, contactId, WORKFLOW_IDS);
  if (!context.client) return fail(deps, event, PROCESS_ERRORS.clientNotFound);
  if (contactId === undefined || !context.contact) {
    // Creating needs an address; an unknown uid alone cannot become a contact.
    if (!event.auto_create_contact || !event.email) return fail(deps, event, PROCESS_ERRORS.contactNotFound);
    contactId = await deps.createContactFor(clientId, event);
    if (contactId === undefined) return fail(deps, event, PROCESS_ERRORS.contactSuppressed);
    context = await deps.processing.loadContext(clientId, contactId, WORKFLOW_IDS);
    if (!context.contact) return fail(deps, event, PROCESS_ERRORS.contactNotFound);
  }

  // A conversion of a broadcast that counts this event type (none listed: no request). Every store has the lookup;
  // a test's partial fake may not.
  const { broadcastRecipients, markConverted } = deps.processing;
  if (broadcastRecipients && markConverted)
    await recordConversions(
      {
        broadcastRecipients: broadcastRecipients.bind(deps.processing),
        markConverted: markConverted.bind(deps.processing),
      },
      clientId,
      context.contact.id,
      event,
      context.broadcastConversions,
    );

  // Listed executions found no longer queued by a cancellation's condition: not cancelled, only unlisted.
  const movedOn = new Set<number>();
  // What the commit's journey conditions refused, left out of the next try: entries whose lock held, waits whose
  // timeout won, runs that ended before their exit, locks no longer the exited run's.
  const refusedEntries = new Map<number, Exclude<JourneyEntryOutcome, 'entered'>>();
  const lostResolutions = new Set<number>();
  const missedExits = new Set<number>();
  const goneLocks = new Set<number>();
  for (let draw = 1; ; draw += 1) {
    const now = deps.clock.now();
    const executions = segmentEvent ? [] : plannedExecutions(context, event, now);
    const contact = context.contact!;
    const changes = segmentEvent ? {} : contactChangesOf(contact, event);
    const goals = segmentEvent ? NO_GOALS : goalsOf(context, event, now.toISOString(), movedOn);
    // The contact's counters of the events its client's segments count: written in this commit, beside the contact.
    const counters =
      context.segmentIndex && !segmentEvent
        ? counterUpdateOf(context.segmentIndex, eventForConditions(event), context.counters)
        : undefined;
    // Items the rest of the commit may take: the event, the contact, its counters, each execution and cancellation
    // with its cap.
    const room = MAX_TRANSACTION_ITEMS - 3 - 2 * (executions.length + goals.cancellations.length);
    const journeys = journeyEffectsOf(context, event, now, room, {
      refusedEntries,
      lostResolutions,
      missedExits,
      goneLocks,
    });
    const processed: EventRecord = {
      ...event,
      queue_status: 'processed',
      contact_id: contact.id,
      contact: { email: contact.email, first_name: contact.first_name ?? null, last_name: contact.last_name ?? null },
      execution_ids: executions.map((e) => e.id),
      // What the day counters read from this write (counter-facts.ts): each workflow started, and each converted.
      execution_workflow_ids: executions.map((e) => e.workflow_id),
      ...(goals.conversions.length > 0 ? { converted_workflow_ids: goals.conversions.map((c) => c.workflowId) } : {}),
      ...(goals.convertedSteps.length > 0 ? { converted_steps: goals.convertedSteps } : {}),
      // Journeys only (absent otherwise, so an event of the 8 workflows is stored as it always was).
      ...(journeys.entries.length > 0 ? { journey_entries: journeys.entries } : {}),
      ...(journeys.resumed.length > 0
        ? {
            resumed_run_ids: journeys.resumed.map((w) => w.runId),
            resumed_run_seqs: journeys.resumed.map((w) => w.marker.q + 1),
          }
        : {}),
      processed_at: now.toISOString(),
    };
    const outcome = await deps.processing.commit({
      event: processed,
      executions,
      contact: {
        contactId: contact.id,
        ...changes,
        workflowsStarted: queued(executions).length - goals.cancellations.length,
        at: now.toISOString(),
        ...(goals.exited.length > 0 ? { goalMarks: { workflowIds: goals.exited, eventId: event.id } } : {}),
        opened: queued(executions).map((e) => ({
          execution_id: e.id,
          workflow_id: e.workflow_id,
          cap_day: e.cap_day,
          critical: e.critical,
          scheduled_for: e.scheduled_for,
        })),
        closed: [...goals.cancellations.map((c) => c.execution.execution_id), ...movedOn],
        conversions: goals.conversions,
        ...journeys.contact,
        ...(counters ? { counters: { next: counters, readVersion: context.counters?.ev_v ?? null } } : {}),
      },
      cancellations: goals.cancellations,
      ...journeys.writes,
      // The day counters' shards, from the settings and profile just read (no request of their own).
    });
    if (typeof outcome === 'object') {
      // Claimed (or ended) since the contact was read: that execution is not this event's to cancel.
      for (const id of outcome.moved) movedOn.add(id);
      for (const r of outcome.refused ?? []) refusedEntries.set(r.journey_id, r.outcome);
      for (const id of outcome.resolutionsLost ?? []) lostResolutions.add(id);
      for (const id of outcome.exitsMissed ?? []) missedExits.add(id);
      for (const id of outcome.locksGone ?? []) goneLocks.add(id);
      if (draw >= MAX_ID_DRAWS) throw new Error('could not commit the event: its executions kept moving');
      continue;
    }
    if (outcome === 'contact_changed') {
      // Another exit converted the same e-mail first, a wait was entered since the read, another event of the contact
      // moved its counters, or the contact was erased: decide again on a fresh read.
      context = await deps.processing.loadContext(clientId, contact.id, WORKFLOW_IDS);
      if (!context.contact) return fail(deps, event, PROCESS_ERRORS.contactNotFound);
      if (draw >= MAX_ID_DRAWS) throw new Error('could not commit the event: its contact kept changing');
      continue;
    }
    if (outcome === 'already_processed') return deps.events.get(clientId, eventId);
    if (outcome === 'committed') {
      // The journey and version ride along, so a container that has not cached the version reads it in the run's
      // one BatchGet.
      const runMessage = (runId: number, seq: number, journeyId: number, version: number) => ({
        client_id: clientId,
        run_id: runId,
        seq,
        contact_id: contact.id,
        journey_id: journeyId,
        version,
      });
      await Promise.all([
        ...queued(executions).map((e) =>
          dispatchExecution(deps, { client_id: clientId, execution_id: e.id }, new Date(e.scheduled_for), now),
        ),
        // The cancelled executions' schedules are released: their time will not come.
        ...goals.cancellations.map((c) =>
          releaseExecutionSchedule(
            deps,
            { client_id: clientId, execution_id: c.execution.execution_id },
            c.execution.scheduled_for,
            now,
          ),
        ),
        // advance-runs takes every step of a run, its first included; a resumed run takes its on_event edge.
        ...(journeys.writes.entries ?? []).map(({ run }) =>
          dispatchRun(deps, runMessage(run.id, 1, run.journey_id, run.version), now, now),
        ),
        ...journeys.resumed.map((w) =>
          dispatchRun(deps, runMessage(w.runId, w.marker.q + 1, w.marker.j, w.marker.v), now, now),
        ),
        // The timeouts of the waits this event ended (resumed or exited) will find their seq stale: released.
        ...[...journeys.resumed, ...journeys.exitedWaits].map((w) =>
          releaseRunSchedule(deps, { client_id: clientId, run_id: w.runId, seq: w.marker.q }, w.marker.t, now),
        ),
      ]);
      return processed;
    }
    if (draw >= MAX_ID_DRAWS) throw new Error('could not draw free execution ids');
  }
}

/** A segment event's goals: it exits, cancels and converts nothing. */
const NO_GOALS: ReturnType<typeof goalsOf> = { exited: [], cancellations: [], conversions: [], convertedSteps: [] };

/** What an earlier try of the commit found refused, to leave out of the next. */
interface JourneyRefused {
  refusedEntries: ReadonlyMap<number, Exclude<JourneyEntryOutcome, 'entered'>>;
  lostResolutions: ReadonlySet<number>;
  missedExits: ReadonlySet<number>;
  goneLocks: ReadonlySet<number>;
}

/**
 * The event's effects on the client's journeys, from the journey index and the contact's markers read with the
 * context (no request of their own): the runs it starts, the waiting runs it resumes, and the runs of the journeys it
 * exits. An event that both exits a journey and matches a wait of it exits it. When some journey awaits the event's
 * type, the contact's `waits_v` as read conditions the commit, so a wait entered after the read is not missed.
 */
function journeyEffectsOf(
  context: ProcessingContext,
  event: EventRecord,
  now: Date,
  room: number,
  refused: JourneyRefused,
) {
  const contact = context.contact!;
  const index = context.journeyIndex;
  const at = now.toISOString();
  const segmentEvent = isSegmentEvent(event);
  const exited = new Set(segmentEvent ? [] : journeysExitedBy(index, event).map((j) => j.id));
  const waits = new Map(waitMarkersOf(contact).map((w) => [w.runId, w]));
  const exits: RunExit[] = runMarkersOf(contact)
    .filter((r) => exited.has(r.marker.j) && !refused.missedExits.has(r.runId))
    .map((r) => ({
      runId: r.runId,
      journeyId: r.marker.j,
      contactId: contact.id,
      ...(r.marker.k !== undefined ? { keyHash: r.marker.k } : {}),
      at,
      ...(refused.goneLocks.has(r.runId) ? { keepLock: true } : {}),
    }));
  const exitedWaits = exits.flatMap((e) => {
    const wait = waits.get(e.runId);
    return wait ? [wait] : [];
  });
  const resumed: WaitMatch[] = (segmentEvent ? [] : matchWaits(contact, event, index, context.topics)).filter(
    (w) => !exited.has(w.marker.j) && !refused.lostResolutions.has(w.runId),
  );
  const awaited = !segmentEvent && (index?.journeys ?? []).some((j) => j.awaited_events.includes(event.type));

  // Runs start within what the commit has room for (a run and its lock each); the limits keep this from binding
  // unless a contact at its run limit meets the most executions and cancellations at once.
  const planned = planEntries(context, event, now, refused.refusedEntries);
  const fit = Math.max(0, Math.floor((room - resumed.length - 2 * exits.length) / 2));
  for (const run of planned.runs.splice(fit))
    planned.refused.push({ journey_id: run.journey_id, outcome: 'runs_limit' });
  planned.locks.splice(fit);
  const order = new Map((index?.journeys ?? []).map((j, i) => [j.id, i]));
  const entries: JourneyEntry[] = [
    ...planned.runs.map((run) => ({ journey_id: run.journey_id, run_id: run.id, outcome: 'entered' as const })),
    ...planned.refused.map((r) => ({ journey_id: r.journey_id, run_id: null, outcome: r.outcome })),
  ].sort((a, b) => (order.get(a.journey_id) ?? 0) - (order.get(b.journey_id) ?? 0));
  const waitsVersion = (contact as unknown as Record<string, unknown>)[WAITS_VERSION_ATTRIBUTE];

  return {
    entries,
    resumed,
    exitedWaits,
    contact: {
      ...(planned.runs.length > 0
        ? {
            runsStarted: planned.runs.map((run) => ({
              runId: run.id,
              journeyId: run.journey_id,
              ...(run.key_hash !== undefined ? { keyHash: run.key_hash } : {}),
            })),
          }
        : {}),
      ...(resumed.length + exitedWaits.length > 0
        ? { waitsRemoved: [...resumed, ...exitedWaits].map((w) => w.runId) }
        : {}),
      ...(exits.length > 0 ? { runsRemoved: exits.map((e) => e.runId) } : {}),
      ...(planned.runs.length + exits.length > 0
        ? { runsRead: { counter: runsCounterOf(contact), markers: runMarkersOf(contact).length } }
        : {}),
      ...(awaited ? { waitsVersionRead: typeof waitsVersion === 'number' ? waitsVersion : null } : {}),
    },
    writes: {
      ...(planned.runs.length > 0 ? { entries: planned.runs.map((run, i) => ({ run, lock: planned.locks[i]! })) } : {}),
      ...(resumed.length > 0
        ? {
            resolutions: resumed.map((w) => ({
              runId: w.runId,
              seq: w.marker.q,
              stepId: w.marker.s,
              eventId: event.id,
              at,
            })),
          }
        : {}),
      ...(exits.length > 0 ? { runExits: exits } : {}),
    },
  };
}

/**
 * The enabled workflows this event exits (their goal marks move to it) and the contact's listed executions of them to
 * cancel. A listed execution may have moved on (claimed, sent, skipped): the cancellation is conditioned on it being
 * queued, and one that moved is left to its worker — the send-time check stops what this misses (goalReachedFor).
 */
function goalsOf(context: ProcessingContext, event: EventRecord, at: string, movedOn: ReadonlySet<number>) {
  const limits = effectiveLimits(context.settings, planOf(context.client!.plan));
  // The client's journeys exited too: their goal marks stop a queued send of theirs at send time, as a workflow's.
  const journeys = journeysExitedBy(context.journeyIndex, event);
  const exited = [
    ...limits.enabledWorkflows.filter((id) => {
      const workflow = findWorkflow(id);
      const customization = context.customizations.find((c) => c.workflow_id === id);
      return workflow !== undefined && exitsWorkflow(workflow, exitEventsOf(workflow, customization), event);
    }),
    ...journeys.map((j) => j.id),
  ];
  const windowDaysOf = (id: number) =>
    journeys.find((j) => j.id === id)?.settings.conversion_window_days ??
    conversionWindowDaysOf(context.customizations.find((c) => c.workflow_id === id));
  const cancellations: GoalCancellation[] = openExecutionsOf(context.contact)
    .filter((open) => exited.includes(open.workflow_id) && !movedOn.has(open.execution_id))
    .map((execution) => ({ execution, contactId: context.contact!.id, eventId: event.id, at }));
  const conversions = exited.flatMap((workflowId) => {
    const sentAt = conversionOf(context.contact, workflowId, at, windowDaysOf(workflowId));
    return sentAt ? [{ workflowId, sentAt }] : [];
  });
  // A journey's converted e-mail counts on the step (and arms) that sent it, as the contact's item remembers it.
  const convertedSteps: ConvertedStep[] = conversions.flatMap(({ workflowId }) => {
    const place = lastSentPlaceOf(context.contact, workflowId);
    return place?.step_id !== undefined
      ? [{ journey_id: workflowId, step_id: place.step_id, ...(place.arms ? { arms: place.arms } : {}) }]
      : [];
  });
  return { exited, cancellations, conversions, convertedSteps };
}

/** One queued execution per enabled workflow the event triggers, each planned for its send time. */
function plannedExecutions(context: ProcessingContext, event: EventRecord, now: Date): ExecutionRecord[] {
  const limits = effectiveLimits(context.settings, planOf(context.client!.plan));
  const enabled = new Set(limits.enabledWorkflows);
  const drawId = distinctIdsAt(now);
  return workflowsTriggeredBy(event)
    .filter((workflow) => enabled.has(workflow.id))
    .map((workflow) => {
      const customization = context.customizations.find((c) => c.workflow_id === workflow.id);
      const plan = planExecution({
        workflow,
        customization,
        settings: context.settings,
        contact: context.contact!,
        eventTs: event.ts,
        clientOpenHours: context.clientOpenHours,
      });
      return {
        id: drawId(),
        client_id: event.client_id,
        workflow_id: workflow.id,
        contact_id: context.contact!.id,
        event_id: event.id,
        status: plan.sendable ? EXECUTION_STATUS.queued : EXECUTION_STATUS.skipped,
        ...(plan.sendable ? {} : { processed_at: now.toISOString() }),
        ...(plan.reason ? { reason: plan.reason } : {}),
        is_test: false,
        attempt: 1,
        template_id: plan.templateId,
        priority_score: plan.priorityScore,
        critical: workflow.critical,
        cap_day: plan.capDay,
        send_zone: plan.zone,
        event: eventVarsOf(event),
        scheduled_for: plan.scheduledFor.toISOString(),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
    });
}

/** The event failed: stored so (and so counted by its type, as every processed event is). */
async function fail(deps: ProcessDeps, event: EventRecord, error: string): Promise<EventRecord> {
  const now = deps.clock.now().toISOString();
  const failed: EventRecord = {
    ...event,
    queue_status: 'failed',
    process_error: error,
    processed_at: now,
    execution_ids: [],
  };
  const outcome = await deps.processing.commit({ event: failed, executions: [] });
  return outcome === 'already_processed' ? ((await deps.events.get(event.client_id, event.id)) ?? failed) : failed;
}

/**
 * A redelivered, already processed event: its executions and runs go out again (the executor ignores all but queued
 * executions, advance-runs a seq its run has left), each run at the seq the commit gave it.
 */
async function redispatch(deps: ProcessDeps, event: EventRecord): Promise<void> {
  const now = deps.clock.now();
  const run = (runId: number, seq: number) =>
    dispatchRun(
      deps,
      {
        client_id: event.client_id,
        run_id: runId,
        seq,
        ...(event.contact_id !== undefined ? { contact_id: event.contact_id } : {}),
      },
      now,
      now,
    );
  const seqs = event.resumed_run_seqs ?? [];
  await Promise.all([
    ...(event.execution_ids ?? []).map((id) =>
      dispatchExecution(deps, { client_id: event.client_id, execution_id: id }, now, now),
    ),
    ...(event.journey_entries ?? []).flatMap((e) => (e.run_id !== null ? [run(e.run_id, 1)] : [])),
    ...(event.resumed_run_ids ?? []).map((id, i) => run(id, seqs[i] ?? 1)),
  ]);
}
