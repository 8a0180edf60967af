import { describe, expect, it } from 'vitest';
import { sesNotification } from '../../../../local/engine/ses-notifications.js';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import {
  CONFIRMED_BY_NOTIFICATION,
  DEFAULT_LEASE_MS,
  RESENT_WITHOUT_EVIDENCE,
} from '../../../../shared/domain/executions/settle-claim.js';
import { sweepStuckExecutions } from '../../../../shared/domain/executions/sweep-executions.js';
import { connectionReset, engineHarness, internalError, type EngineHarness } from './engine-harness.js';

/** Lets a pending call run up to where it hangs (a lost worker never returns). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

/** SES's Send notification of the `index`-th accepted e-mail, as SNS delivers it to the status queue. */
function sendNotification(h: EngineHarness, index: number) {
  const email = h.mailer.emails[index]!;
  const at = h.clock.now();
  return sesNotification({ type: 'Send' }, email, h.mailer.idOf(index), at, at, 'us-east-1');
}

const workflowMessages = (h: EngineHarness) => h.queue.sent.filter((m) => m.queue === 'workflow');

describe('a claim that lost its worker or its answer', () => {
  it('brings a redelivery inside the lease back at the lease end instead of dropping it, sending nothing', async () => {
    // Prepare: the worker dies after its claim, before SES is called.
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());
    h.mailer.thenLoseWorker(false);
    void h.execute(execution.id);
    await settle();
    h.clock.advance(180_000); // SQS's visibility timeout

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'waiting' });
    expect(workflowMessages(h).at(-1)).toEqual({
      queue: 'workflow',
      message: { client_id: execution.client_id, execution_id: execution.id },
      options: { delaySeconds: (DEFAULT_LEASE_MS - 180_000) / 1000 + 1 },
    });
    expect(h.mailer.emails).toHaveLength(0);
    expect(await h.execution(execution.id)).toMatchObject({ status: EXECUTION_STATUS.executing });
  });

  it('sends once at the lease end when no notification names the e-mail, with the reason, the counters raised once', async () => {
    // Prepare
    const h = await engineHarness();
    const ann = await h.contact();
    const execution = await h.queued(ann);
    h.mailer.thenLoseWorker(false);
    void h.execute(execution.id);
    await settle();
    h.clock.advance(DEFAULT_LEASE_MS + 1_000);

    // Act: the delayed message and a sweep's arrive together
    const outcomes = await Promise.all([h.execute(execution.id), h.execute(execution.id)]);

    // Assess
    expect(outcomes).toEqual(
      expect.arrayContaining([{ kind: 'finished', status: EXECUTION_STATUS.completed }, { kind: 'duplicate' }]),
    );
    expect(h.mailer.emails).toHaveLength(1);
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.completed,
      reason: RESENT_WITHOUT_EVIDENCE,
      attempt: 2,
    });
    expect(await h.monthSent()).toBe(1);
    expect((await h.dayCap(execution)).sent).toBe(1);
    expect(await h.storedContact(ann.id)).toMatchObject({ total_emails_sent: 1, active_workflow_count: 0 });
  });

  it('completes from a Send notification when the worker died after SES accepted: no second e-mail, the waiting execution woken', async () => {
    // Prepare: SES accepted, the worker never recorded it.
    const h = await engineHarness();
    const ann = await h.contact();
    const execution = await h.queued(ann);
    h.mailer.thenLoseWorker(true);
    void h.execute(execution.id);
    await settle();

    // Act: SES's notification arrives (found through the e-mail's tags), then the message it wakes
    const tracked = await h.track(sendNotification(h, 0));
    const wake = workflowMessages(h).at(-1);
    const outcome = await h.execute(execution.id);

    // Assess
    expect(tracked).toMatchObject({ kind: 'recorded', status: 2 });
    expect(wake).toEqual({
      queue: 'workflow',
      message: { client_id: execution.client_id, execution_id: execution.id },
    });
    expect(outcome).toEqual({
      kind: 'finished',
      status: EXECUTION_STATUS.completed,
      reason: CONFIRMED_BY_NOTIFICATION,
    });
    expect(h.mailer.emails).toHaveLength(1);
    const sent = await h.stores.sentEmails.get(execution.client_id, (await h.execution(execution.id))!.sent_email_id!);
    expect(sent).toMatchObject({ provider_message_id: h.mailer.idOf(0) });
    expect(await h.stores.tracking.findMessage(h.mailer.idOf(0))).toMatchObject({ contact_id: ann.id });
    expect(await h.storedContact(ann.id)).toMatchObject({ total_emails_sent: 1, active_workflow_count: 0 });
    expect(await h.monthSent()).toBe(1);
  });

  it('keeps the claim on a reset after the request left, and completes from the evidence without sending again', async () => {
    // Prepare
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());
    h.mailer.thenThrow(connectionReset());

    // Act
    const first = await h.execute(execution.id);

    // Assess: no throw (nothing for the queue to retry), marked, back at the lease end
    expect(first).toEqual({ kind: 'waiting' });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.executing,
      outcome_unknown: true,
      reason: 'send_outcome_unknown: Error',
    });
    expect(workflowMessages(h).at(-1)?.options).toEqual({ delaySeconds: DEFAULT_LEASE_MS / 1000 + 1 });
    expect(await h.monthSent()).toBe(1);

    // Act: SES did accept it; its Send notification arrives later
    await h.track(sendNotification(h, 0));
    const woken = await h.execute(execution.id);

    // Assess
    expect(woken).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed, reason: CONFIRMED_BY_NOTIFICATION });
    expect(h.mailer.emails).toHaveLength(1);
    expect(await h.execution(execution.id)).not.toHaveProperty('outcome_unknown');
  });

  it('sends once after the lease when a 5xx left the outcome unknown and no notification ever came', async () => {
    // Prepare: SES answered 500 and had taken nothing
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());
    h.mailer.thenFailBeforeSend(internalError());
    expect(await h.execute(execution.id)).toEqual({ kind: 'waiting' });

    // Act: an early look (a duplicate delivery) waits; the one at the lease end sends
    h.clock.advance(60_000);
    const early = await h.execute(execution.id);
    h.clock.advance(DEFAULT_LEASE_MS);
    const late = await h.execute(execution.id);

    // Assess
    expect(early).toEqual({ kind: 'waiting' });
    expect(late).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.completed,
      reason: RESENT_WITHOUT_EVIDENCE,
    });
    expect(await h.monthSent()).toBe(1);
  });

  it('decides at once at the local boot (no worker can hold the claim): evidence completes it, none sends it', async () => {
    // Prepare: two claims stranded by a crash, one after SES accepted (and its notification replayed), one before
    const h = await engineHarness();
    const accepted = await h.queued(await h.contact());
    const never = await h.queued(await h.contact());
    h.mailer.thenLoseWorker(true).thenLoseWorker(false);
    void h.execute(accepted.id);
    void h.execute(never.id);
    await settle();
    await h.track(sendNotification(h, 0));

    // Act
    const outcomes = [await h.executeAtBoot(accepted.id), await h.executeAtBoot(never.id)];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'finished', status: EXECUTION_STATUS.completed, reason: CONFIRMED_BY_NOTIFICATION },
      { kind: 'finished', status: EXECUTION_STATUS.completed },
    ]);
    expect(h.mailer.emails.map((e) => e.to)).toEqual([h.mailer.emails[0]!.to, h.mailer.emails[1]!.to]);
    expect(h.mailer.emails).toHaveLength(2);
    expect(await h.monthSent()).toBe(2);
  });
});

describe('sweepStuckExecutions', () => {
  it('sends every claim older than the lease back to the executor, paged, one batch a page, and none younger', async () => {
    // Prepare: three stranded claims, one fresh
    const h = await engineHarness();
    const stranded = [];
    for (let i = 0; i < 3; i += 1) stranded.push(await h.queued(await h.contact()));
    h.mailer.thenLoseWorker(false).thenLoseWorker(false).thenLoseWorker(false).thenLoseWorker(false);
    for (const e of stranded) void h.execute(e.id);
    await settle();
    h.clock.advance(DEFAULT_LEASE_MS + 1);
    const fresh = await h.queued(await h.contact());
    void h.execute(fresh.id);
    await settle();
    const batches: unknown[][] = [];
    const queue = {
      send: h.queue.send.bind(h.queue),
      sendBatch: async (_q: string, messages: readonly { message: unknown }[]) =>
        void batches.push(messages.map((m) => m.message)),
    };

    // Act
    const result = await sweepStuckExecutions(
      { executions: h.stores.executions, queue: queue as never, clock: h.clock, leaseMs: DEFAULT_LEASE_MS },
      { pageSize: 2 },
    );

    // Assess
    expect(result).toEqual({ enqueued: 3, pages: 2, stoppedOnBudget: false });
    expect(batches.flat()).toEqual(
      expect.arrayContaining(stranded.map((e) => ({ client_id: e.client_id, execution_id: e.id }))),
    );
    expect(batches.flat()).not.toContainEqual({ client_id: fresh.client_id, execution_id: fresh.id });
  });
});
