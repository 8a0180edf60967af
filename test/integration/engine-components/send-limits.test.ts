import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { executeWorkflow, sentEmailIdOf } from '../../../shared/domain/executions/execute-workflow.js';
import { createTestClient } from '../support/clients.js';
import {
  dayCapCount,
  engineContainer,
  engineDeps,
  executionsOf,
  FakeMailer,
  fixedClock,
  ingestAndProcess,
  patchSettings,
  quotaCounter,
  RecordingQueue,
  RecordingScheduler,
  type EngineDeps,
} from '../support/engine-components.js';

/** A fixed Tuesday in the future: its quota and day-cap counters are this file's alone. */
const NOW = '2030-01-15T10:00:00.000Z';
const NEXT_UTC_DAY = '2030-01-16T00:00:00.000Z';
const NEXT_UTC_MONTH = '2030-02-01T00:00:00.000Z';

const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/** A fresh client with these settings (through the settings domain, as PATCH /client/settings writes them). */
async function clientWith(settings: Record<string, unknown>, at = NOW, mailer = new FakeMailer()) {
  const scheduler = new RecordingScheduler();
  const deps = engineDeps(engineContainer({ queue: new RecordingQueue(), scheduler, mailer, clock: fixedClock(at) }));
  const client = await createTestClient();
  await patchSettings(deps, client.id, settings);
  return { deps, mailer, scheduler, clientId: client.id };
}

/** The execution of `workflowId` an event started. */
async function startedBy(deps: EngineDeps, clientId: number, body: Record<string, unknown>, workflowId: number) {
  const event = await ingestAndProcess(deps, clientId, body);
  const execution = (await executionsOf(deps, event)).get(workflowId);
  if (!execution) throw new Error(`the ${body['type']} event started no workflow ${workflowId}`);
  return execution;
}

describe("the client's e-mail quota (real DynamoDB adapters)", () => {
  it('defers the send over the daily quota to the next UTC day: status stays 1, a later scheduled_for, a deferred reason', async () => {
    // Prepare: a daily quota of 1 and two contacts' welcome e-mails, both due now
    const { deps, mailer, scheduler, clientId } = await clientWith({ custom_email_quota_per_day: 1 });
    const first = await startedBy(
      deps,
      clientId,
      { type: 'signup', email: address('q1'), auto_create_contact: true },
      1,
    );
    const second = await startedBy(
      deps,
      clientId,
      { type: 'signup', email: address('q2'), auto_create_contact: true },
      1,
    );

    // Act
    const outcomes = [
      await executeWorkflow(deps, clientId, first.id),
      await executeWorkflow(deps, clientId, second.id),
    ];

    // Assess
    expect(outcomes).toEqual([{ kind: 'finished', status: 3 }, { kind: 'deferred' }]);
    expect(mailer.sent.map((m) => m.to)).toEqual([expect.stringMatching(/^q1-/)]);
    expect(await deps.executions.get(clientId, second.id)).toEqual({
      ...second,
      status: 1,
      scheduled_for: NEXT_UTC_DAY,
      reason: 'deferred: daily e-mail quota reached (2030-01-15)',
      updated_at: NOW,
      deferrals: 1,
    });
    expect(scheduler.scheduled).toContainEqual({
      at: NEXT_UTC_DAY,
      queue: 'workflow',
      message: { client_id: clientId, execution_id: second.id },
      name: `exec-${clientId}-${second.id}-${Date.parse(NEXT_UTC_DAY)}`,
    });
    // Nothing of the refused claim stays: counters at the one send, no e-mail record for the deferred one
    expect(await quotaCounter(deps, clientId, new Date(NOW))).toEqual({ month: 1, day: 1 });
    expect(await dayCapCount(deps, second)).toBe(0);
    expect(await deps.sentEmails.get(clientId, sentEmailIdOf(second))).toBeUndefined();
  });

  it('sends the deferred e-mail when its new time comes: deferred, never dropped', async () => {
    // Prepare
    const { deps, mailer, clientId } = await clientWith({ custom_email_quota_per_day: 1 });
    const first = await startedBy(
      deps,
      clientId,
      { type: 'signup', email: address('d1'), auto_create_contact: true },
      1,
    );
    const second = await startedBy(
      deps,
      clientId,
      { type: 'signup', email: address('d2'), auto_create_contact: true },
      1,
    );
    await executeWorkflow(deps, clientId, first.id);
    await executeWorkflow(deps, clientId, second.id);
    const nextDay = engineDeps(
      engineContainer({
        queue: new RecordingQueue(),
        scheduler: new RecordingScheduler(),
        mailer,
        clock: fixedClock(NEXT_UTC_DAY),
      }),
    );

    // Act
    const outcome = await executeWorkflow(nextDay, clientId, second.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: 3 });
    expect(mailer.sent.map((m) => m.to)).toEqual([expect.stringMatching(/^d1-/), expect.stringMatching(/^d2-/)]);
    expect(await quotaCounter(deps, clientId, new Date(NEXT_UTC_DAY))).toEqual({ month: 2, day: 1 });
  });

  it('defers the send over the monthly quota to the next UTC month', async () => {
    // Prepare: a monthly quota of 1 (the daily one is the plan's)
    const { deps, clientId } = await clientWith({ custom_email_quota_per_month: 1 });
    const first = await startedBy(
      deps,
      clientId,
      { type: 'signup', email: address('m1'), auto_create_contact: true },
      1,
    );
    const second = await startedBy(
      deps,
      clientId,
      { type: 'signup', email: address('m2'), auto_create_contact: true },
      1,
    );

    // Act
    await executeWorkflow(deps, clientId, first.id);
    const outcome = await executeWorkflow(deps, clientId, second.id);

    // Assess
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(await deps.executions.get(clientId, second.id)).toMatchObject({ status: 1, scheduled_for: NEXT_UTC_MONTH });
  });
});

describe("the contact's daily cap (real DynamoDB adapters)", () => {
  it('skips the e-mail over max_emails_per_day with reason frequency_cap', async () => {
    // Prepare: a cap of 1; the contact signs up (welcome, priority 90) and its trial ends (priority 80)
    const { deps, mailer, clientId } = await clientWith({ max_emails_per_day: 1 });
    const email = address('cap');
    const welcome = await startedBy(deps, clientId, { type: 'signup', email, auto_create_contact: true }, 1);
    const trial = await startedBy(deps, clientId, { type: 'trial_ending', email }, 3);

    // Act
    const outcomes = [
      await executeWorkflow(deps, clientId, welcome.id),
      await executeWorkflow(deps, clientId, trial.id),
    ];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'finished', status: 3 },
      { kind: 'finished', status: 6, reason: 'frequency_cap' },
    ]);
    expect(mailer.sent).toHaveLength(1);
    expect(await deps.executions.get(clientId, trial.id)).toEqual({
      ...trial,
      status: 6,
      reason: 'frequency_cap',
      processed_at: NOW,
      updated_at: NOW,
    });
    expect(await dayCapCount(deps, welcome)).toBe(1);
    expect(await deps.sentEmails.get(clientId, sentEmailIdOf(trial))).toBeUndefined();
  });

  it("gives the day's last slot to the higher priority: the lower one, executed first, is skipped while the higher waits", async () => {
    // Prepare
    const { deps, mailer, clientId } = await clientWith({ max_emails_per_day: 1 });
    const email = address('prio');
    const welcome = await startedBy(deps, clientId, { type: 'signup', email, auto_create_contact: true }, 1);
    const trial = await startedBy(deps, clientId, { type: 'trial_ending', email }, 3);

    // Act: the lower priority (trial ending, 80) comes first
    const outcomes = [
      await executeWorkflow(deps, clientId, trial.id),
      await executeWorkflow(deps, clientId, welcome.id),
    ];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'finished', status: 6, reason: 'frequency_cap' },
      { kind: 'finished', status: 3 },
    ]);
    expect(mailer.sent.map((m) => m.tags?.['execution_id'])).toEqual([String(welcome.id)]);
  });

  it.each([
    [true, { kind: 'finished', status: 3 }, 2],
    [false, { kind: 'finished', status: 6, reason: 'frequency_cap' }, 1],
  ])(
    'with enable_critical_bypass %s, a critical payment_failed e-mail over the cap ends as %o',
    async (bypass, expected, sends) => {
      // Prepare: the cap already used by the welcome e-mail
      const { deps, mailer, clientId } = await clientWith({
        max_emails_per_day: 1,
        enabled_workflows: [1, 3, 5],
        enable_critical_bypass: bypass,
      });
      const email = address('critical');
      const welcome = await startedBy(deps, clientId, { type: 'signup', email, auto_create_contact: true }, 1);
      await executeWorkflow(deps, clientId, welcome.id);
      const payment = await startedBy(deps, clientId, { type: 'payment_failed', email }, 5);

      // Act
      const outcome = await executeWorkflow(deps, clientId, payment.id);

      // Assess
      expect(payment.critical).toBe(true);
      expect(outcome).toEqual(expected);
      expect(mailer.sent).toHaveLength(sends);
      expect(await dayCapCount(deps, welcome)).toBe(1);
    },
  );

  it("does not count a critical e-mail that bypassed the cap against the contact's day", async () => {
    // Prepare
    const { deps, mailer, clientId } = await clientWith({ max_emails_per_day: 1, enabled_workflows: [1, 3, 5] });
    const email = address('first-critical');
    const payment = await startedBy(deps, clientId, { type: 'payment_failed', email, auto_create_contact: true }, 5);
    const trial = await startedBy(deps, clientId, { type: 'trial_ending', email }, 3);

    // Act
    const outcomes = [
      await executeWorkflow(deps, clientId, payment.id),
      await executeWorkflow(deps, clientId, trial.id),
    ];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'finished', status: 3 },
      { kind: 'finished', status: 3 },
    ]);
    expect(mailer.sent).toHaveLength(2);
    expect(await dayCapCount(deps, trial)).toBe(1);
  });
});
