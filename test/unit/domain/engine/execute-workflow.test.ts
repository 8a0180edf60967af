import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { sentEmailIdOf } from '../../../../shared/domain/executions/execute-workflow.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { sweepStuckExecutions } from '../../../../shared/domain/executions/sweep-executions.js';
import {
  CLIENT_ID,
  dailyQuotaExceeded,
  engineHarness,
  NOW,
  RecordingQueue,
  sendingPaused,
  throttled,
} from './engine-harness.js';

const LEASE_MS = 600_000;

const minutesFromNow = (n: number) => new Date(Date.parse(NOW) + n * 60_000).toISOString();
const logStatuses = async (h: Awaited<ReturnType<typeof engineHarness>>, executionId: number) =>
  (
    await h.stores.sentEmails.getWithLogs(CLIENT_ID, sentEmailIdOf({ client_id: CLIENT_ID, id: executionId }))
  )?.logs.map((l) => l.status);

describe('executeWorkflow (memory ports)', () => {
  it('sends a due execution once: completed with its sent e-mail, the contact figures moved', async () => {
    // Prepare
    const h = await engineHarness({ email_from_name: 'Acme', email_from_address: 'hello@acme.test' });
    const ann = await h.contact();
    const execution = await h.queued(ann);

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    const sentEmailId = sentEmailIdOf(execution);
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(h.mailer.emails[0]).toMatchObject({
      from: '"Acme" <hello@acme.test>',
      to: ann.email,
      tags: { client_id: String(CLIENT_ID), execution_id: String(execution.id), sent_email_id: sentEmailId },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.completed,
      sent_email_id: sentEmailId,
      processed_at: NOW,
    });
    expect(await h.stores.sentEmails.get(CLIENT_ID, sentEmailId)).toMatchObject({
      status: SENT_STATUS.sent,
      provider_message_id: 'ses-1',
    });
    // Both logs carry the fixed clock's time: their order within it is the log ids'.
    expect((await logStatuses(h, execution.id))?.sort()).toEqual([SENT_STATUS.queued, SENT_STATUS.sent]);
    expect(await h.storedContact(ann.id)).toMatchObject({
      total_emails_sent: 1,
      active_workflow_count: 0,
      last_workflow_at: NOW,
    });
    expect(await h.monthSent()).toBe(1);
  });

  it('sends once when the same message is delivered twice', async () => {
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());

    const outcomes = [await h.execute(execution.id), await h.execute(execution.id)];

    expect(outcomes).toEqual([{ kind: 'finished', status: EXECUTION_STATUS.completed }, { kind: 'duplicate' }]);
    expect(h.mailer.emails).toHaveLength(1);
  });

  it('sends once when two workers run the same execution at the same time', async () => {
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());

    const outcomes = await Promise.all([h.execute(execution.id), h.execute(execution.id)]);

    expect(outcomes).toEqual(
      expect.arrayContaining([{ kind: 'finished', status: EXECUTION_STATUS.completed }, { kind: 'duplicate' }]),
    );
    expect(h.mailer.emails).toHaveLength(1);
    expect(await h.monthSent()).toBe(1);
  });

  it('defers a throttled send: the claim given back, queued (1) again after the backoff, a new delayed message; the next run sends once', async () => {
    // Prepare
    const h = await engineHarness();
    const ann = await h.contact();
    const execution = await h.queued(ann);
    h.mailer.thenThrow(throttled());

    // Act
    const outcome = await h.execute(execution.id);

    // Assess: acknowledged (no throw, so SQS never redelivers it), queued for 1 s later (the backoff's lower bound)
    const later = new Date(Date.parse(NOW) + 1_000).toISOString();
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(await h.execution(execution.id)).toEqual({
      ...execution,
      status: EXECUTION_STATUS.queued,
      scheduled_for: later,
      reason: 'send_throttled: TooManyRequestsException',
      throttled: 1,
      deferrals: 1,
      updated_at: NOW,
    });
    expect(h.queue.sent).toEqual([
      {
        queue: 'workflow',
        message: { client_id: CLIENT_ID, execution_id: execution.id },
        options: { delaySeconds: 1 },
      },
    ]);
    expect(await h.monthSent()).toBe(0);
    expect((await h.dayCap(execution)).sent).toBe(0);
    expect(await logStatuses(h, execution.id)).toEqual([]);

    // Act: the delayed message arrives (twice, at once)
    h.clock.advance(1_000);
    const retried = await Promise.all([h.execute(execution.id), h.execute(execution.id)]);

    // Assess
    expect(retried).toEqual(
      expect.arrayContaining([{ kind: 'finished', status: EXECUTION_STATUS.completed }, { kind: 'duplicate' }]),
    );
    expect(h.mailer.emails).toHaveLength(2);
    expect(await h.execution(execution.id)).toMatchObject({ status: EXECUTION_STATUS.completed, attempt: 1 });
    expect(await h.monthSent()).toBe(1);
    expect((await logStatuses(h, execution.id))?.sort()).toEqual([SENT_STATUS.queued, SENT_STATUS.sent]);
    expect(await h.storedContact(ann.id)).toMatchObject({ total_emails_sent: 1, active_workflow_count: 0 });
  });

  it('doubles the backoff with each throttle of the same execution', async () => {
    // Prepare
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());
    h.mailer.thenThrow(throttled()).thenThrow(throttled()).thenThrow(throttled());

    // Act: each delayed message arrives on time and is throttled again
    const delays: (number | undefined)[] = [];
    for (let i = 0; i < 3; i += 1) {
      await h.execute(execution.id);
      const delay = h.queue.sent.at(-1)?.options?.delaySeconds;
      delays.push(delay);
      h.clock.advance((delay ?? 0) * 1000);
    }

    // Assess
    expect(delays).toEqual([1, 2, 4]);
    expect(await h.execution(execution.id)).toMatchObject({ status: EXECUTION_STATUS.queued, throttled: 3 });
  });

  it("defers a send over SES's daily quota by 10 minutes (the backoff's lower bound) instead of hammering it", async () => {
    // Prepare
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());
    h.mailer.thenThrow(dailyQuotaExceeded());

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.queued,
      scheduled_for: new Date(Date.parse(NOW) + 600_000).toISOString(),
      reason: 'send_daily_quota: LimitExceededException',
    });
    expect(h.queue.sent.at(-1)?.options).toEqual({ delaySeconds: 600 });
  });

  it('leaves a deferred execution to the stuck-execution sweep when its new message cannot be sent', async () => {
    // Prepare: SQS fails the deferral's SendMessage
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());
    h.mailer.thenThrow(throttled());
    h.queue.send = async () => {
      throw Object.assign(new Error('Request is throttled.'), { name: 'RequestThrottled' });
    };

    // Act
    const error = await h.execute(execution.id).catch((e: unknown) => e);
    h.clock.advance(1_000 + LEASE_MS + 1);
    const swept = new RecordingQueue();
    const sweep = await sweepStuckExecutions({
      executions: h.stores.executions,
      queue: swept,
      clock: h.clock,
      leaseMs: LEASE_MS,
    });

    // Assess: thrown (the original message comes back too), the execution queued with its claim given back, swept
    expect(error).toMatchObject({ name: 'RequestThrottled' });
    expect(await h.execution(execution.id)).toMatchObject({ status: EXECUTION_STATUS.queued, throttled: 1 });
    expect(await h.monthSent()).toBe(0);
    expect(sweep.enqueued).toBe(1);
    expect(swept.sent).toEqual([{ queue: 'workflow', message: { client_id: CLIENT_ID, execution_id: execution.id } }]);
  });

  it('releases the claim and throws for the queue to retry when SES refuses for another reason (a paused account)', async () => {
    // Prepare
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());
    h.mailer.thenThrow(sendingPaused());

    // Act
    const error = await h.execute(execution.id).catch((e: unknown) => e);

    // Assess
    expect(error).toMatchObject({ name: 'SendingPausedException' });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.executing,
      retry_pending: true,
      reason: 'send_retry: SendingPausedException',
      attempt: 2,
    });
    expect(await h.monthSent()).toBe(0);
    expect((await h.dayCap(execution)).sent).toBe(0);
  });

  it('fails (4) with the provider reason when the e-mail is refused for good, giving the counters back', async () => {
    // Prepare
    const h = await engineHarness();
    const ann = await h.contact();
    const execution = await h.queued(ann);
    h.mailer.thenReject('MessageRejected: Email address is not verified.');

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({
      kind: 'finished',
      status: EXECUTION_STATUS.failed,
      reason: 'MessageRejected: Email address is not verified.',
    });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.failed,
      reason: 'MessageRejected: Email address is not verified.',
      processed_at: NOW,
    });
    expect(await h.stores.sentEmails.get(CLIENT_ID, sentEmailIdOf(execution))).toMatchObject({
      status: SENT_STATUS.failed,
    });
    expect(await h.monthSent()).toBe(0);
    expect((await h.dayCap(execution)).sent).toBe(0);
    expect((await h.storedContact(ann.id))?.active_workflow_count).toBe(0);
  });

  it('defers an execution past a full client quota to the next UTC day (status stays 1) and dispatches it for then', async () => {
    // Prepare: one e-mail a day, already spent by another contact's send.
    const h = await engineHarness({ custom_email_quota_per_day: 1 });
    await h.execute((await h.queued(await h.contact())).id);
    const execution = await h.queued(await h.contact());

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(h.mailer.emails).toHaveLength(1);
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.queued,
      scheduled_for: '2026-01-16T00:00:00.000Z',
      reason: expect.stringContaining('quota'),
    });
    expect(h.scheduler.scheduled).toEqual([
      {
        instant: '2026-01-16T00:00:00.000Z',
        queue: 'workflow',
        message: { client_id: CLIENT_ID, execution_id: execution.id },
        name: `exec-${CLIENT_ID}-${execution.id}-${Date.parse('2026-01-16T00:00:00.000Z')}`,
      },
    ]);
    expect(await h.stores.sentEmails.get(CLIENT_ID, sentEmailIdOf(execution))).toBeUndefined();
    expect(await h.monthSent()).toBe(1);
  });

  it('skips (6) with frequency_cap once the contact has had its e-mails of the day', async () => {
    // Prepare
    const h = await engineHarness({ max_emails_per_day: 1 });
    const ann = await h.contact();
    const first = await h.queued(ann);
    await h.execute(first.id);
    const second = await h.queued(ann, { workflow_id: 3, template_id: 3, priority_score: 80 });

    // Act
    const outcome = await h.execute(second.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'frequency_cap' });
    expect(await h.execution(second.id)).toMatchObject({ status: EXECUTION_STATUS.skipped, reason: 'frequency_cap' });
    expect(h.mailer.emails).toHaveLength(1);
    expect(await h.monthSent()).toBe(1);
  });

  it('gives the last slot of the day to the higher priority waiting for it', async () => {
    // Prepare: one slot, two executions waiting; the lower priority runs first.
    const h = await engineHarness({ max_emails_per_day: 1 });
    const ann = await h.contact();
    const low = await h.queued(ann, { workflow_id: 3, template_id: 3, priority_score: 40 });
    const high = await h.queued(ann, { priority_score: 90 });

    // Act
    const outcomes = [await h.execute(low.id), await h.execute(high.id)];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'frequency_cap' },
      { kind: 'finished', status: EXECUTION_STATUS.completed },
    ]);
    expect(h.mailer.emails).toHaveLength(1);
  });

  it.each([
    ['sends a critical workflow past the cap when the client enables the bypass', true, EXECUTION_STATUS.completed],
    ['holds a critical workflow to the cap without the bypass', false, EXECUTION_STATUS.skipped],
  ] as const)('%s', async (_name, bypass, status) => {
    // Prepare: the contact's one e-mail of the day is sent; then payment_failed (critical) comes.
    const h = await engineHarness({ max_emails_per_day: 1, enable_critical_bypass: bypass, enabled_workflows: [1, 5] });
    const ann = await h.contact();
    await h.execute((await h.queued(ann)).id);
    const critical = await h.queued(ann, { workflow_id: 5, template_id: 5, critical: true, priority_score: 100 });

    // Act
    const outcome = await h.execute(critical.id);

    // Assess
    expect(outcome).toEqual({
      kind: 'finished',
      status,
      ...(status === EXECUTION_STATUS.skipped ? { reason: 'frequency_cap' } : {}),
    });
    expect(h.mailer.emails).toHaveLength(status === EXECUTION_STATUS.completed ? 2 : 1);
  });

  it.each([
    ['an unsubscribed contact', { is_subscribed: false, unsubscribed_at: NOW }, {}, 'unsubscribed'],
    [
      'a suppressed contact',
      { is_subscribed: false, unsubscribed_at: NOW, unsubscribe_reason: 'hard_bounce' },
      {},
      'suppressed',
    ],
    ['a suspended client', {}, { status: 'suspended' as const }, 'client_suspended'],
  ])('skips (6) the execution of %s, sending nothing', async (_name, contactFields, clientFields, reason) => {
    // Prepare
    const h = await engineHarness({}, clientFields);
    const ann = await h.contact(contactFields);
    const execution = await h.queued(ann);

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.skipped, reason });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.skipped,
      reason,
      processed_at: NOW,
    });
    expect(h.mailer.emails).toEqual([]);
    expect((await h.storedContact(ann.id))?.active_workflow_count).toBe(0);
    expect((await h.dayCap(execution)).pending).toEqual({});
  });

  it('skips (6) the execution of a workflow the client disabled meanwhile', async () => {
    const h = await engineHarness({ enabled_workflows: [2] });
    const execution = await h.queued(await h.contact());

    expect(await h.execute(execution.id)).toEqual({
      kind: 'finished',
      status: EXECUTION_STATUS.skipped,
      reason: 'workflow_disabled',
    });
    expect(h.mailer.emails).toEqual([]);
  });

  it('cancels (5) an execution waiting longer than queue_timeout_days', async () => {
    const h = await engineHarness({ queue_timeout_days: 7 });
    const execution = await h.queued(await h.contact(), { scheduled_for: minutesFromNow(-8 * 24 * 60) });

    expect(await h.execute(execution.id)).toEqual({
      kind: 'finished',
      status: EXECUTION_STATUS.cancelled,
      reason: 'queue_timeout',
    });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.cancelled,
      reason: 'queue_timeout',
    });
    expect(h.mailer.emails).toEqual([]);
  });

  it.each([
    ['within 15 minutes through the queue delay', 10, 'queue'],
    ['later through the scheduler', 120, 'scheduler'],
  ] as const)(
    'sends an execution that arrives early back for its time, %s, sending nothing',
    async (_name, minutes, via) => {
      // Prepare
      const h = await engineHarness();
      const execution = await h.queued(await h.contact(), { scheduled_for: minutesFromNow(minutes) });

      // Act
      const outcome = await h.execute(execution.id);

      // Assess
      const message = { client_id: CLIENT_ID, execution_id: execution.id };
      expect(outcome).toEqual({ kind: 'not_due' });
      expect(await h.execution(execution.id)).toEqual(execution);
      expect(h.mailer.emails).toEqual([]);
      if (via === 'queue')
        expect(h.queue.sent).toContainEqual({ queue: 'workflow', message, options: { delaySeconds: minutes * 60 } });
      else
        expect(h.scheduler.scheduled).toEqual([
          { instant: minutesFromNow(minutes), queue: 'workflow', message, name: expect.any(String) },
        ]);
    },
  );
});
