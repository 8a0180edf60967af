import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import type { ProcessingStore } from '../../../../shared/domain/events/processing-store.js';
import { goalMarkOf, openExecutionsOf } from '../../../../shared/domain/workflows/goals.js';
import type { MailSendResult, OutboundEmail } from '../../../../shared/platform.js';
import { CLIENT_ID, engineHarness, NOW, type EngineHarness } from './engine-harness.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

const executionsOf = async (h: EngineHarness, workflowId: number): Promise<ExecutionRecord[]> =>
  (await h.stores.executions.list(CLIENT_ID, { page: 1, perPage: 100, workflowId })).executions;

/** One workflow's counters summed over the harness's days. */
async function countersOf(h: EngineHarness, workflowId: number) {
  const { workflows } = await h.stores.stats.read(CLIENT_ID, '2026-01-01', '2026-02-28', workflowId);
  const sum = (name: 'exited' | 'sent' | 'executions' | 'converted') =>
    workflows.reduce((n, row) => n + row.counts[name], 0);
  return { exited: sum('exited'), sent: sum('sent'), executions: sum('executions'), converted: sum('converted') };
}

/** An event ingested and processed for `email`, a minute after the clock's last step. */
async function happen(h: EngineHarness, raw: Record<string, unknown>) {
  h.clock.advance(MINUTE);
  const event = await h.ingest(raw);
  return (await h.process(event.id))!;
}

describe('goals and exit conditions (memory ports)', () => {
  it('cancels the queued win-back when subscription_reactivated is processed before its first attempt, and the late message sends nothing', async () => {
    // Prepare: a cancellation starts the win-back (3 days later, on a schedule).
    const h = await engineHarness({ enabled_workflows: [6] });
    const ann = await h.contact();
    await happen(h, { type: 'subscription_cancelled', email: ann.email });
    const [winback] = await executionsOf(h, 6);
    expect(winback).toMatchObject({ status: EXECUTION_STATUS.queued });
    expect(openExecutionsOf(await h.storedContact(ann.id))).toEqual([
      {
        execution_id: winback!.id,
        workflow_id: 6,
        cap_day: winback!.cap_day,
        critical: false,
        scheduled_for: winback!.scheduled_for,
      },
    ]);
    const schedule = h.scheduler.scheduled.find(
      (s) => (s.message as { execution_id: number }).execution_id === winback!.id,
    )!;

    // Act
    const reactivated = await happen(h, { type: 'subscription_reactivated', email: ann.email });
    const released = [...h.scheduler.cancelled];
    h.clock.advance(3 * DAY);
    const late = await h.execute(winback!.id);

    // Assess
    expect(await h.execution(winback!.id)).toMatchObject({
      status: EXECUTION_STATUS.cancelled,
      reason: 'goal_reached',
      goal_event_id: reactivated.id,
      processed_at: reactivated.processed_at,
    });
    expect(late).toEqual({ kind: 'duplicate' });
    expect(h.mailer.emails).toEqual([]);
    // Its schedule is released: the one its dispatch made, named after its execution and time.
    expect(schedule.name).toBe(`exec-${CLIENT_ID}-${winback!.id}-${Date.parse(winback!.scheduled_for)}`);
    expect(released).toEqual([schedule.name]);
    const contact = await h.storedContact(ann.id);
    expect(contact?.active_workflow_count).toBe(0);
    expect(openExecutionsOf(contact)).toEqual([]);
    expect(goalMarkOf(contact, 6)).toEqual({ at: reactivated.processed_at, event_id: reactivated.id });
    expect((await h.dayCap(winback!)).pending).toEqual({});
    expect(await countersOf(h, 6)).toMatchObject({ executions: 1, exited: 1, sent: 0 });
  });

  it('cancels an execution waiting for its send time (deferred while sending is paused)', async () => {
    // Prepare: trial_ending sends at once, but the client is paused: the execution is deferred and stays queued (1).
    const h = await engineHarness({ enabled_workflows: [3] }, { sending_paused_at: NOW });
    const ann = await h.contact();
    await happen(h, { type: 'trial_ending', email: ann.email });
    const [reminder] = await executionsOf(h, 3);
    expect(await h.execute(reminder!.id)).toEqual({ kind: 'deferred' });

    // Act: an event with upgrade: true (any type) is an upgrade for the exits, as for upgrade thanks' trigger.
    const upgraded = await happen(h, { type: 'plan_changed', upgrade: true, email: ann.email });

    // Assess
    expect(await h.execution(reminder!.id)).toMatchObject({
      status: EXECUTION_STATUS.cancelled,
      reason: 'goal_reached',
      goal_event_id: upgraded.id,
    });
    expect(h.mailer.emails).toEqual([]);
  });

  it('lets an execution already claimed go out: the exit finds it moved on, commits without it, and only marks the goal', async () => {
    // Prepare: the exit event is processed while the provider call of the reminder is in flight (claimed, status 2).
    const h = await engineHarness({ enabled_workflows: [3] });
    const ann = await h.contact();
    await happen(h, { type: 'trial_ending', email: ann.email });
    const [reminder] = await executionsOf(h, 3);
    let upgradeId = 0;
    const send = h.mailer.send.bind(h.mailer);
    h.mailer.send = async (email: OutboundEmail): Promise<MailSendResult> => {
      expect((await h.execution(reminder!.id))?.status).toBe(EXECUTION_STATUS.executing);
      upgradeId = (await happen(h, { type: 'upgrade', email: ann.email })).id;
      return send(email);
    };

    // Act
    const outcome = await h.execute(reminder!.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(await h.stores.events.get(CLIENT_ID, upgradeId)).toMatchObject({ queue_status: 'processed' });
    const contact = await h.storedContact(ann.id);
    expect(goalMarkOf(contact, 3)?.event_id).toBe(upgradeId);
    expect(openExecutionsOf(contact)).toEqual([]);
    expect(contact?.active_workflow_count).toBe(0);
    expect(await countersOf(h, 3)).toMatchObject({ sent: 1, exited: 0 });
  });

  it("fault: the exit event's cancel misses the execution (its contact read before the execution was listed) — the send-time check stops the e-mail", async () => {
    // Prepare: processing reads a contact item that lists no queued execution, as a read racing the trigger's commit would.
    const h = await engineHarness({ enabled_workflows: [6] });
    const ann = await h.contact();
    await happen(h, { type: 'subscription_cancelled', email: ann.email });
    const [winback] = await executionsOf(h, 6);
    const processing = h.stores.processing as ProcessingStore;
    const loadContext = processing.loadContext.bind(processing);
    processing.loadContext = async (...args) => {
      const context = await loadContext(...args);
      const contact =
        context.contact &&
        Object.fromEntries(Object.entries(context.contact).filter(([name]) => !name.startsWith('open_')));
      return { ...context, contact: contact as typeof context.contact };
    };
    const reactivated = await happen(h, { type: 'subscription_reactivated', email: ann.email });
    expect((await h.execution(winback!.id))?.status).toBe(EXECUTION_STATUS.queued);

    // Act: the win-back comes due.
    h.clock.advance(3 * DAY);
    const outcome = await h.execute(winback!.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.cancelled, reason: 'goal_reached' });
    expect(await h.execution(winback!.id)).toMatchObject({
      status: EXECUTION_STATUS.cancelled,
      goal_event_id: reactivated.id,
    });
    expect(h.mailer.emails).toEqual([]);
    expect(openExecutionsOf(await h.storedContact(ann.id))).toEqual([]);
    expect(await countersOf(h, 6)).toMatchObject({ exited: 1, sent: 0 });
  });

  it("an exit processed between the send's read and its claim fails the claim's condition on the contact: cancelled, quota given back", async () => {
    // Prepare: the exit event lands right after the executor loaded the contact.
    const h = await engineHarness({ enabled_workflows: [3] });
    const ann = await h.contact();
    await happen(h, { type: 'trial_ending', email: ann.email });
    const [reminder] = await executionsOf(h, 3);
    const load = h.stores.delivery.load.bind(h.stores.delivery);
    let upgradeId: number | undefined;
    h.stores.delivery.load = async (execution) => {
      const context = await load(execution);
      if (upgradeId === undefined) {
        // Not listed any more (as if claimed already): only the goal mark moves.
        const processing = h.stores.processing as ProcessingStore;
        const loadContext = processing.loadContext.bind(processing);
        processing.loadContext = async (...args) => {
          const c = await loadContext(...args);
          return {
            ...c,
            contact: Object.fromEntries(
              Object.entries(c.contact!).filter(([n]) => !n.startsWith('open_')),
            ) as typeof c.contact,
          };
        };
        upgradeId = (await happen(h, { type: 'upgrade', email: ann.email })).id;
        processing.loadContext = loadContext;
      }
      return context;
    };

    // Act
    const outcome = await h.execute(reminder!.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.cancelled, reason: 'goal_reached' });
    expect(await h.execution(reminder!.id)).toMatchObject({ goal_event_id: upgradeId });
    expect(h.mailer.emails).toEqual([]);
    expect(await h.monthSent()).toBe(0);
  });

  it("never exits a workflow on the event that starts it, and follows the client's exit_events", async () => {
    // Prepare: re-engagement exits on any event — but not on its own trigger, inactive. Trial ending exits on purchase only.
    const h = await engineHarness({ enabled_workflows: [3, 8] });
    await h.stores.customizations.save({
      clientId: CLIENT_ID,
      workflowId: 3,
      overrides: { exit_events: ['purchase'] },
      expectedVersion: undefined,
      at: NOW,
      audit: {
        id: 'a1',
        workflow_id: 3,
        key_id: 1,
        auth_method: 'api_key',
        request_id: null,
        at: NOW,
        before: {
          template_id: null,
          delay_minutes: null,
          priority_score: null,
          preferred_send_hour: null,
          preferred_send_minute: null,
          send_time_mode: 0,
        },
        after: {
          template_id: null,
          delay_minutes: null,
          priority_score: null,
          preferred_send_hour: null,
          preferred_send_minute: null,
          send_time_mode: 0,
          exit_events: ['purchase'],
        },
      },
    });
    const ann = await h.contact();
    await happen(h, { type: 'inactive', email: ann.email });
    await happen(h, { type: 'inactive', email: ann.email });
    expect((await executionsOf(h, 8)).map((e) => e.status)).toEqual([EXECUTION_STATUS.queued, EXECUTION_STATUS.queued]);

    // Act: trial_ending is an event of the contact (re-engagement exits); upgrade no longer exits trial ending.
    const trial = await happen(h, { type: 'trial_ending', email: ann.email });
    await happen(h, { type: 'upgrade', email: ann.email });

    // Assess
    const reengagements = await executionsOf(h, 8);
    expect(reengagements.map((e) => [e.status, e.reason, e.goal_event_id])).toEqual([
      [EXECUTION_STATUS.cancelled, 'goal_reached', trial.id],
      [EXECUTION_STATUS.cancelled, 'goal_reached', trial.id],
    ]);
    expect((await executionsOf(h, 3))[0]).toMatchObject({ status: EXECUTION_STATUS.queued });
    const purchase = await happen(h, { type: 'purchase', email: ann.email });
    expect((await executionsOf(h, 3))[0]).toMatchObject({
      status: EXECUTION_STATUS.cancelled,
      goal_event_id: purchase.id,
    });
    expect((await h.storedContact(ann.id))?.active_workflow_count).toBe(0);
  });

  it('counts a conversion: an exit event within the window after an e-mail of the workflow was sent, once per e-mail', async () => {
    // Prepare: the trial-ending reminder is sent.
    const h = await engineHarness({ enabled_workflows: [3] });
    const ann = await h.contact();
    await happen(h, { type: 'trial_ending', email: ann.email });
    const [reminder] = await executionsOf(h, 3);
    await h.execute(reminder!.id);

    // Act: she upgrades 6 days later (within the default 7), then again.
    h.clock.advance(6 * DAY);
    await happen(h, { type: 'upgrade', email: ann.email });
    await happen(h, { type: 'upgrade', email: ann.email });

    // Assess
    expect(await countersOf(h, 3)).toMatchObject({ sent: 1, converted: 1, exited: 0 });
  });

  it('does not count an exit after the window (conversion_window_days 1), nor one without a send of the workflow', async () => {
    const h = await engineHarness({ enabled_workflows: [3, 6] });
    await h.stores.customizations.save({
      clientId: CLIENT_ID,
      workflowId: 3,
      overrides: { conversion_window_days: 1 },
      expectedVersion: undefined,
      at: NOW,
      audit: {
        id: 'a2',
        workflow_id: 3,
        key_id: 1,
        auth_method: 'api_key',
        request_id: null,
        at: NOW,
        before: {
          template_id: null,
          delay_minutes: null,
          priority_score: null,
          preferred_send_hour: null,
          preferred_send_minute: null,
          send_time_mode: 0,
        },
        after: {
          template_id: null,
          delay_minutes: null,
          priority_score: null,
          preferred_send_hour: null,
          preferred_send_minute: null,
          send_time_mode: 0,
          conversion_window_days: 1,
        },
      },
    });
    const ann = await h.contact();
    await happen(h, { type: 'trial_ending', email: ann.email });
    await h.execute((await executionsOf(h, 3))[0]!.id);

    h.clock.advance(2 * DAY);
    await happen(h, { type: 'upgrade', email: ann.email });

    // Upgrade also exits the win-back, which never sent anything to her.
    expect(await countersOf(h, 3)).toMatchObject({ sent: 1, converted: 0 });
    expect(await countersOf(h, 6)).toMatchObject({ converted: 0 });
  });

  it('counts one conversion when two exit events race for the same e-mail: the second commit finds it converted and reads again', async () => {
    const h = await engineHarness({ enabled_workflows: [3] });
    const ann = await h.contact();
    await happen(h, { type: 'trial_ending', email: ann.email });
    await h.execute((await executionsOf(h, 3))[0]!.id);
    // Both events read the contact before either commits.
    h.clock.advance(MINUTE);
    const first = await h.ingest({ type: 'upgrade', email: ann.email });
    const second = await h.ingest({ type: 'purchase', upgrade: true, email: ann.email });
    const processing = h.stores.processing as ProcessingStore;
    const commit = processing.commit.bind(processing);
    let held: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => (held = resolve));
    let commits = 0;
    processing.commit = async (c) => {
      commits += 1;
      if (commits === 1) await gate;
      return commit(c);
    };

    const one = h.process(first.id);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await h.process(second.id);
    held!();
    await one;

    expect(await countersOf(h, 3)).toMatchObject({ converted: 1 });
    expect(commits).toBe(3);
  });
});
