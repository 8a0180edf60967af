import type { Clock } from '../../platform.js';
import { planOf, effectiveLimits } from '../settings/effective-settings.js';
import { findWorkflow, WORKFLOW_IDS, workflowsTriggeredBy } from '../workflows/catalog.js';
import {
  conversionOf,
  conversionWindowDaysOf,
  exitEventsOf,
  exitsWorkflow,
  openExecutionsOf,
} from '../workflows/goals.js';
import { dispatchExecution, releaseExecutionSchedule, type DispatchDeps } from '../engine/dispatch.js';
import { EXECUTION_STATUS, type ExecutionEventVars, type ExecutionRecord } from '../executions/execution-record.js';
import { planExecution } from '../executions/plan-execution.js';
import { timeOrderedId } from '../ids/time-ordered-id.js';
import { contactChangesOf } from './contact-changes.js';
import { PROCESS_ERRORS, type EventRecord } from './event-record.js';
import type { EventStore } from './event-store.js';
import type { GoalCancellation, ProcessingContext, ProcessingStore } from './processing-store.js';

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

const queued = (executions: ExecutionRecord[]) => executions.filter((e) => e.status === EXECUTION_STATUS.queued);

/**
 * Processes one event (DESIGN.md §8): resolve the contact, start one execution per enabled workflow the event
 * triggers, store the event as processed with them in one transaction, then dispatch each execution for its send
 * time. Safe to run twice for one event: a processed event only has its still-queued executions dispatched again.
 * Requests for an event that starts one workflow: event read, lock read, context read, commit (4 DynamoDB) + 1 SQS.
 * An exit event cancels the contact's queued executions of the workflows it exits in the same commit:
 * the contact item lists them (`open_<id>`) and keeps each workflow's last exit (`goal_w<id>`), which the send-time
 * check reads, so exits cost no request; a listed execution claimed meanwhile costs one more commit.
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
  let contactId = await deps.processing.findContactId(
    clientId,
    event.email ? { email: event.email } : { uid: event.uid! },
  );
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

  // Listed executions found no longer queued by a cancellation's condition: not cancelled, only unlisted.
  const movedOn = new Set<number>();
  for (let draw = 1; ; draw += 1) {
    const now = deps.clock.now();
    const executions = plannedExecutions(context, event, now);
    const contact = context.contact!;
    const changes = contactChangesOf(contact, event);
    const goals = goalsOf(context, event, now.toISOString(), movedOn);
    const processed: EventRecord = {
      ...event,
      queue_status: 'processed',
      contact_id: contact.id,
      contact: { email: contact.email, first_name: contact.first_name ?? null, last_name: contact.last_name ?? null },
      execution_ids: executions.map((e) => e.id),
      // What the day counters read from this write (counter-facts.ts): each workflow started, and each converted.
      execution_workflow_ids: executions.map((e) => e.workflow_id),
      ...(goals.conversions.length > 0 ? { converted_workflow_ids: goals.conversions.map((c) => c.workflowId) } : {}),
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
      },
      cancellations: goals.cancellations,
      // The day counters' shards, from the settings and profile just read (no request of their own).
    });
    if (typeof outcome === 'object') {
      // Claimed (or ended) since the contact was read: that execution is not this event's to cancel.
      for (const id of outcome.moved) movedOn.add(id);
      if (draw >= MAX_ID_DRAWS) throw new Error('could not commit the event: its executions kept moving');
      continue;
    }
    if (outcome === 'contact_changed') {
      // Another exit converted the same e-mail first, or the contact was erased: decide again on a fresh read.
      context = await deps.processing.loadContext(clientId, contact.id, WORKFLOW_IDS);
      if (!context.contact) return fail(deps, event, PROCESS_ERRORS.contactNotFound);
      if (draw >= MAX_ID_DRAWS) throw new Error('could not commit the event: its contact kept changing');
      continue;
    }
    if (outcome === 'already_processed') return deps.events.get(clientId, eventId);
    if (outcome === 'committed') {
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
      ]);
      return processed;
    }
    if (draw >= MAX_ID_DRAWS) throw new Error('could not draw free execution ids');
  }
}

/**
 * The enabled workflows this event exits (their goal marks move to it) and the contact's listed executions of them to
 * cancel. A listed execution may have moved on (claimed, sent, skipped): the cancellation is conditioned on it being
 * queued, and one that moved is left to its worker — the send-time check stops what this misses (goalReachedFor).
 */
function goalsOf(context: ProcessingContext, event: EventRecord, at: string, movedOn: ReadonlySet<number>) {
  const limits = effectiveLimits(context.settings, planOf(context.client!.plan));
  const exited = limits.enabledWorkflows.filter((id) => {
    const workflow = findWorkflow(id);
    const customization = context.customizations.find((c) => c.workflow_id === id);
    return workflow !== undefined && exitsWorkflow(workflow, exitEventsOf(workflow, customization), event);
  });
  const cancellations: GoalCancellation[] = openExecutionsOf(context.contact)
    .filter((open) => exited.includes(open.workflow_id) && !movedOn.has(open.execution_id))
    .map((execution) => ({ execution, contactId: context.contact!.id, eventId: event.id, at }));
  const conversions = exited.flatMap((workflowId) => {
    const customization = context.customizations.find((c) => c.workflow_id === workflowId);
    const sentAt = conversionOf(context.contact, workflowId, at, conversionWindowDaysOf(customization));
    return sentAt ? [{ workflowId, sentAt }] : [];
  });
  return { exited, cancellations, conversions };
}

/** One queued execution per enabled workflow the event triggers, each planned for its send time. */
function plannedExecutions(context: ProcessingContext, event: EventRecord, now: Date): ExecutionRecord[] {
  const limits = effectiveLimits(context.settings, planOf(context.client!.plan));
  const enabled = new Set(limits.enabledWorkflows);
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
        id: timeOrderedId(now),
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

/** A redelivered, already processed event: its executions go out again (the executor ignores all but queued). */
async function redispatch(deps: ProcessDeps, event: EventRecord): Promise<void> {
  const now = deps.clock.now();
  await Promise.all(
    (event.execution_ids ?? []).map((id) =>
      dispatchExecution(deps, { client_id: event.client_id, execution_id: id }, now, now),
    ),
  );
}

/** Metadata is copied into each execution only while small: it is written with every execution write. */
const MAX_COPIED_METADATA_BYTES = 4096;

/** The event as templates see it (`it.event.*`). */
function eventVarsOf(event: EventRecord): ExecutionEventVars {
  const { type, ts, action, feature, plan, amount, upgrade } = event;
  const metadata =
    event.metadata && Buffer.byteLength(JSON.stringify(event.metadata)) <= MAX_COPIED_METADATA_BYTES
      ? event.metadata
      : undefined;
  return Object.fromEntries(
    Object.entries({ type, ts, action, feature, plan, amount, upgrade, metadata }).filter(([, v]) => v !== undefined),
  ) as unknown as ExecutionEventVars;
}
