import type { ContactRecord } from '../contacts/contact-store.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../executions/execution-record.js';
import { conditionsHold } from '../journeys/definition/conditions.js';
import { splitArmOf } from '../journeys/definition/split-hash.js';
import type { Condition, JourneyDefinition, JourneyStep, Next, StepId } from '../journeys/definition/types.js';
import { nextLocalTime } from '../journeys/definition/wait-until.js';
import type { IndexedJourney } from '../journeys/journey-records.js';
import { sendZoneOf } from '../scheduling/send-zone.js';
import { sentEmailIdOf } from '../sent-emails/sent-email-id.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { TopicSet } from '../topics/topic-store.js';
import type { OpenHours } from '../tracking/open-hours.js';
import { planSendStep } from './plan-send-step.js';
import type { RunEndReason, RunRecord, RunStatus, WaitMarker } from './run-record.js';
import type { CountedEngagement, RunContactChange } from './run-store.js';

/** A send step's e-mail is due to have left this long after its planned time; later, the run looks at it again. */
export const SEND_CHECK_AFTER_MS = 60 * 60 * 1000;

/** How the run leaves the step it is at: its `next`, or a wait_for_event's `on_event` / `on_timeout`. */
export type LeaveBy = 'next' | 'on_event' | 'on_timeout';

/** Where a walk starts: executing the run's current step, or leaving it (its wait is over) by an edge. */
export type WalkStart = { enter: true } | { enter: false; by: LeaveBy };

export interface WalkInput {
  run: RunRecord;
  /** The version the run is on now (after following the live one) and its definition. */
  version: number;
  pinned: boolean;
  definition: JourneyDefinition;
  stepId: StepId;
  start: WalkStart;
  journey: IndexedJourney;
  contact: ContactRecord;
  settings: SettingsRecord | undefined;
  topics: TopicSet | undefined;
  clientOpenHours: OpenHours | undefined;
  /** Counted engagement by sent e-mail id (the e-mails of this run's sends an engagement condition reads). */
  engagement: Readonly<Record<string, CountedEngagement>>;
  /** The contact's membership of each segment the branches ahead name (segmentIdsAhead), by segment id. */
  segments?: Readonly<Record<number, boolean>>;
  now: Date;
  /** Milliseconds one minute of a `wait` or a `wait_for_event` timeout lasts (JourneyTime: 60,000 but in tests). */
  minuteMs: number;
  /** A free execution id (time-ordered: each draw differs). */
  drawId(): number;
  /** The client's custom field ids of these names, defined when new (as contact writes define them). */
  customFieldIds(names: string[]): Promise<Map<string, number>>;
}

export interface WalkResult {
  /** The run after the transition (seq raised by one). */
  run: RunRecord;
  contact?: RunContactChange;
  executions: ExecutionRecord[];
  /** The run ended in this walk. */
  ended: boolean;
}

/** Steps one walk may take at most: a journey has ≤ 50 steps and no cycle, so this never binds a valid one. */
const MAX_STEPS_A_WALK = 100;

/**
 * One transition of a run: from its current step (executed, or left by an edge) through every instant step —
 * branch, split, update_contact, exit — until a step that waits (wait, wait_until, wait_for_event, a queued send) or
 * an end. Instant steps run inline so a branch after a wait costs no transition of its own; each step passed leaves
 * one path entry carrying the new seq. update_contact changes the in-memory contact first, so later conditions read
 * what the transaction will write.
 */
export async function walkSteps(input: WalkInput): Promise<WalkResult> {
  const { now, definition } = input;
  const at = now.toISOString();
  const seq = input.run.seq + 1;
  const run: RunRecord = structuredClone(input.run);
  delete run.resumed_by;
  run.seq = seq;
  run.version = input.version;
  if (input.pinned) run.pinned = true;
  else delete run.pinned;
  run.updated_at = at;
  const contact: ContactRecord = structuredClone(input.contact);
  const change: RunContactChange = { contactId: contact.id, at };
  const executions: ExecutionRecord[] = [];
  const stepOf = (id: StepId): JourneyStep | undefined => definition.steps.find((s) => s.id === id);
  const hadWaitMarker = input.run.wait?.kind === 'wait_for_event';

  const finish = (status: RunStatus, reason?: RunEndReason): WalkResult => {
    run.status = status;
    if (reason) run.reason = reason;
    else delete run.reason;
    run.ended_at = at;
    delete run.due_at;
    delete run.wait;
    change.removeRun = run.id;
    if (hadWaitMarker && change.removeWait === undefined) change.removeWait = run.id;
    return { run, contact: change, executions, ended: true };
  };
  const leave = (stepId: StepId, via?: string) => {
    run.path.push({ step: stepId, seq, at, ...(via !== undefined ? { via } : {}) });
    delete run.wait;
  };

  let current: StepId = input.stepId;
  let entering = input.start.enter;
  if (!input.start.enter) {
    const step = stepOf(current);
    if (!step) return finish('ended', 'version_removed');
    if (input.start.by === 'on_timeout' && hadWaitMarker) change.removeWait = run.id;
    const next = edgeOf(step, input.start.by);
    leave(current, input.start.by === 'next' ? undefined : input.start.by);
    if (next === null) return finish('completed');
    current = next;
    entering = true;
  }

  for (let taken = 0; entering && taken < MAX_STEPS_A_WALK; taken += 1) {
    const step = stepOf(current);
    // A version's edges all name its steps (validated at publish); a missing one ends the run rather than loop.
    if (!step) return finish('ended', 'version_removed');
    run.step_id = step.id;
    run.step_entered_at = at;
    let next: Next;
    switch (step.type) {
      case 'branch': {
        const holds = (conditions: readonly Condition[]) =>
          conditionsHold(conditions, {
            event: run.event,
            contact,
            ...(input.topics ? { topics: input.topics } : {}),
            engagement: engagementBySend(run, input.engagement),
            ...(input.segments ? { segments: input.segments } : {}),
          });
        const chosen = step.branches.find((b) => holds(b.conditions));
        const via = chosen?.name ?? 'otherwise';
        run.branches[step.id] = via;
        leave(step.id, via);
        next = chosen ? chosen.next : step.otherwise;
        break;
      }
      case 'split': {
        const arm = armAt(run, step, input.journey);
        run.arms[step.id] = arm;
        leave(step.id, step.arms[arm]!.name);
        next = step.arms[arm]!.next;
        break;
      }
      case 'update_contact': {
        await updateContact(contact, change, step, input.customFieldIds);
        leave(step.id);
        next = step.next;
        break;
      }
      case 'exit':
        leave(step.id);
        return finish('exited', 'exit_step');
      case 'wait': {
        const due = new Date(now.getTime() + step.minutes * input.minuteMs).toISOString();
        return wait(run, 'active', due, { kind: 'wait', until: due }, change, executions);
      }
      case 'wait_until': {
        const zone = sendZoneOf(contact.timezone, input.settings?.timezone);
        const due = nextLocalTime(now, zone, step.time, step.weekdays).toISOString();
        return wait(run, 'active', due, { kind: 'wait_until', until: due }, change, executions);
      }
      case 'wait_for_event': {
        const due = new Date(now.getTime() + step.timeout_minutes * input.minuteMs).toISOString();
        const marker: WaitMarker = {
          j: run.journey_id,
          v: input.version,
          s: step.id,
          q: seq,
          e: step.event,
          ...(step.match_key && run.key_hash !== undefined ? { k: run.key_hash } : {}),
          ...(step.conditions && step.conditions.length > 0 ? { c: step.conditions } : {}),
          t: due,
        };
        change.wait = { runId: run.id, marker };
        // The marker of a wait this walk left by its timeout is replaced, not removed.
        delete change.removeWait;
        return wait(run, 'waiting', due, { kind: 'wait_for_event', event: step.event, until: due }, change, executions);
      }
      case 'send': {
        const execution = planSendStep({
          id: input.drawId(),
          run,
          runSeq: seq,
          version: input.version,
          journey: input.journey,
          step,
          contact,
          settings: input.settings,
          clientOpenHours: input.clientOpenHours,
          now,
        });
        executions.push(execution);
        run.sends[step.id] = { execution_id: execution.id, sent_email_id: sentEmailIdOf(execution) };
        if (execution.status === EXECUTION_STATUS.queued) {
          change.opened = {
            execution_id: execution.id,
            workflow_id: execution.workflow_id,
            cap_day: execution.cap_day,
            critical: execution.critical,
            scheduled_for: execution.scheduled_for,
          };
          // The executor wakes the run when the e-mail's execution ends; this due time is only the safety net.
          const due = new Date(Date.parse(execution.scheduled_for) + SEND_CHECK_AFTER_MS).toISOString();
          return wait(
            run,
            'active',
            due,
            { kind: 'send', execution_id: execution.id, until: execution.scheduled_for },
            change,
            executions,
          );
        }
        // Skipped at planning (the rules leave no time to send): nothing to wait for, the run goes on.
        leave(step.id);
        next = step.next;
        break;
      }
    }
    if (next === null) return finish('completed');
    current = next;
  }
  throw new Error(`run ${run.id}: more than ${MAX_STEPS_A_WALK} steps in one transition`);
}

/**
 * The arm a run takes at a split: the one it took already (a run never changes arm), else the split's decided winner
 * (an arm the version still has), else the hash of the run's and the step's ids — so a replay takes the same arm.
 */
function armAt(run: RunRecord, step: Extract<JourneyStep, { type: 'split' }>, journey: IndexedJourney): number {
  const taken = run.arms[step.id];
  if (taken !== undefined && step.arms[taken] !== undefined) return taken;
  const winner = journey.split_winners?.[step.id];
  const won = winner ? step.arms.findIndex((a) => a.name === winner.arm) : -1;
  if (won >= 0) return won;
  return splitArmOf(
    run.id,
    step.id,
    step.arms.map((a) => a.percent),
  );
}

function wait(
  run: RunRecord,
  status: 'active' | 'waiting',
  due: string,
  what: NonNullable<RunRecord['wait']>,
  change: RunContactChange,
  executions: ExecutionRecord[],
): WalkResult {
  run.status = status;
  run.due_at = due;
  run.wait = what;
  return { run, ...(changesContact(change) ? { contact: change } : {}), executions, ended: false };
}

/** Whether the change writes anything on the contact (else the transaction leaves the contact out). */
const changesContact = (change: RunContactChange): boolean =>
  Object.keys(change).some((key) => key !== 'contactId' && key !== 'at');

/** The edge a step is left by; a step whose kind has no such edge (changed in a new version) is left by its `next`. */
function edgeOf(step: JourneyStep, by: LeaveBy): Next {
  if (step.type === 'wait_for_event') return by === 'on_event' ? step.on_event : step.on_timeout;
  if ('next' in step) return step.next;
  return null;
}

/** The counted engagement of each send step of this run, by step (a send not read counts as neither). */
function engagementBySend(
  run: RunRecord,
  counted: Readonly<Record<string, CountedEngagement>>,
): Record<StepId, CountedEngagement> {
  const out: Record<StepId, CountedEngagement> = {};
  for (const [stepId, send] of Object.entries(run.sends)) {
    const seen = send.sent_email_id === undefined ? undefined : counted[send.sent_email_id];
    out[stepId] = { opened: seen?.opened ?? false, clicked: seen?.clicked ?? false };
  }
  return out;
}

/**
 * The e-mails whose counted opens and clicks the engagement conditions of the steps about to run read, of the sends
 * this run made: from `stepId` (its own edges included: it may be left now) through every step a transition may
 * pass before it waits again. What a message's hint names, so its read takes them with the run.
 */
export function engagementEmailIds(run: RunRecord, definition: JourneyDefinition, stepId: StepId): string[] {
  const sendSteps = new Set<StepId>();
  for (const condition of branchConditionsAhead(definition, stepId))
    if (condition.on === 'engagement') sendSteps.add(condition.send_step);
  return [...sendSteps].flatMap((id) => {
    const send = run.sends[id];
    return send?.sent_email_id !== undefined ? [send.sent_email_id] : [];
  });
}

/**
 * The segments whose membership the branches a transition from `stepId` may pass read (as engagementEmailIds finds
 * them): the contact's SEGSTATE is read only when there is one, with the run's other reads.
 */
export function segmentIdsAhead(definition: JourneyDefinition, stepId: StepId): number[] {
  const ids = new Set<number>();
  for (const condition of branchConditionsAhead(definition, stepId))
    if (condition.on === 'segment') ids.add(condition.segment_id);
  return [...ids];
}

/** Every condition of the branch steps a transition from `stepId` may pass before it waits again. */
function branchConditionsAhead(definition: JourneyDefinition, stepId: StepId): Condition[] {
  const byId = new Map(definition.steps.map((s) => [s.id, s]));
  const conditions: Condition[] = [];
  const seen = new Set<StepId>();
  const pending: StepId[] = [stepId];
  while (pending.length > 0) {
    const id = pending.pop()!;
    const step = byId.get(id);
    if (!step || seen.has(id)) continue;
    seen.add(id);
    if (step.type === 'branch') for (const branch of step.branches) conditions.push(...branch.conditions);
    // A wait stops a transition; only the step the run is at now may be left through its edges.
    const waits = step.type === 'wait' || step.type === 'wait_until' || step.type === 'wait_for_event';
    if (waits && id !== stepId) continue;
    pending.push(...edgesOf(step));
  }
  return conditions;
}

/** Every step id a step's edges name. */
function edgesOf(step: JourneyStep): StepId[] {
  const edges: Next[] =
    step.type === 'wait_for_event'
      ? [step.on_event, step.on_timeout]
      : step.type === 'branch'
        ? [...step.branches.map((b) => b.next), step.otherwise]
        : step.type === 'split'
          ? step.arms.map((a) => a.next)
          : 'next' in step
            ? [step.next]
            : [];
  return edges.filter((e): e is StepId => e !== null);
}

const CONTACT_FIELDS = ['first_name', 'last_name', 'company', 'phone', 'timezone'] as const;

/** An update_contact step applied to the in-memory contact and to the transaction's contact change. */
async function updateContact(
  contact: ContactRecord,
  change: RunContactChange,
  step: Extract<JourneyStep, { type: 'update_contact' }>,
  customFieldIds: WalkInput['customFieldIds'],
): Promise<void> {
  change.seenUpdatedAt ??= contact.updated_at;
  contact.updated_at = change.at;
  for (const field of CONTACT_FIELDS) {
    const value = step.set?.[field];
    if (value === undefined) continue;
    change.fields = { ...change.fields, [field]: value };
    if (value === null) delete contact[field];
    else contact[field] = value;
  }
  if (step.set_custom && Object.keys(step.set_custom).length > 0) {
    const custom = { ...(contact.custom_fields ?? {}) };
    const unknown = Object.entries(step.set_custom)
      .filter(([name, value]) => value !== null && custom[name] === undefined)
      .map(([name]) => name);
    const ids = unknown.length > 0 ? await customFieldIds(unknown) : new Map<string, number>();
    for (const [name, value] of Object.entries(step.set_custom)) {
      if (value === null) delete custom[name];
      else custom[name] = { id: custom[name]?.id ?? ids.get(name)!, value };
    }
    contact.custom_fields = custom;
    change.customFields = custom;
  }
  if ((step.add_tags?.length ?? 0) > 0 || (step.remove_tags?.length ?? 0) > 0) {
    const removed = new Set(step.remove_tags ?? []);
    const tags = [...new Set([...(contact.tags ?? []), ...(step.add_tags ?? [])])].filter((t) => !removed.has(t));
    contact.tags = tags;
    change.tags = tags;
  }
}
