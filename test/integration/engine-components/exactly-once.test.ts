import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toSqsEvent } from '../../../local/queue-functions.js';
import { createLambdaContext } from '../../../local/lambda-context.js';
import { setContainer } from '../../../shared/composition/container.js';
import { executeWorkflow, sentEmailIdOf } from '../../../shared/domain/executions/execute-workflow.js';
import type { ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import { LocalQueue } from '../../../local/engine/local-queue.js';
import { createQueueDispatcher } from '../../../local/queue-functions.js';
import { FaultDice } from '../../../shared/adapters/faults/fault-dice.js';
import { FaultyMailer } from '../../../shared/adapters/faults/faulty-mailer.js';
import type { Clock } from '../../../shared/platform.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import {
  dayCapCount,
  engineContainer,
  engineDeps,
  executionsOf,
  FakeMailer,
  fixedClock,
  ingestAndProcess,
  quotaCounter,
  RecordingQueue,
  RecordingScheduler,
  throttlingError,
  type EngineDeps,
} from '../support/engine-components.js';

// The retried failures below are expected; their warnings would bury the report (INTEGRATION_LOG_LEVEL shows them).
vi.hoisted(() => {
  process.env['POWERTOOLS_LOG_LEVEL'] = process.env['INTEGRATION_LOG_LEVEL'] ?? 'SILENT';
});

/** A fixed instant in the future: its quota and day-cap counters are this file's alone. */
const NOW = '2030-01-15T10:00:00.000Z';

interface Setup {
  deps: EngineDeps;
  mailer: FakeMailer;
  queue: RecordingQueue;
  welcome: ExecutionRecord;
}

/** A fresh client whose contact just signed up: the welcome execution is queued and due now. */
async function queuedWelcome(mailer = new FakeMailer()): Promise<Setup> {
  const queue = new RecordingQueue();
  const deps = engineDeps(
    engineContainer({ queue, scheduler: new RecordingScheduler(), mailer, clock: fixedClock(NOW) }),
  );
  const client = await createTestClient();
  const event = await ingestAndProcess(deps, client.id, {
    type: 'signup',
    email: `once-${randomUUID().slice(0, 8)}@example.com`,
    auto_create_contact: true,
  });
  const welcome = (await executionsOf(deps, event)).get(1)!;
  return { deps, mailer, queue, welcome };
}

/** The execute-workflow Lambda as SQS invokes it, with the test's container as the process's. */
async function deliver(deps: EngineDeps, records: { messageId: string; body: string; receiveCount: number }[]) {
  setContainer(deps.container);
  const { handler } = await import('../../../functions/queue/execute-workflow.js');
  const context = createLambdaContext({ functionName: 'execute-workflow', awsRequestId: randomUUID() });
  return handler(
    toSqsEvent(
      'workflow',
      records.map((r) => ({ ...r, sentAt: Date.parse(NOW) })),
    ),
    context,
  );
}

/** The logs' statuses; the fixed clock gives every log one instant, so their order among equals is the log id's. */
const logStatuses = (logs: { status: number }[] | undefined) => (logs ?? []).map((l) => l.status).sort();

/** The state one send leaves: completed, one sent e-mail with the provider id, the counters raised once. */
async function expectSentOnce({ deps, mailer, welcome }: Setup): Promise<void> {
  expect(mailer.sent).toHaveLength(1);
  const [mail] = mailer.sent;
  const sentEmailId = sentEmailIdOf(welcome);
  expect(await deps.executions.get(welcome.client_id, welcome.id)).toEqual({
    ...welcome,
    status: 3,
    processed_at: NOW,
    updated_at: NOW,
    sent_email_id: sentEmailId,
  });
  const sent = await deps.sentEmails.getWithLogs(welcome.client_id, sentEmailId);
  expect(sent?.email).toMatchObject({
    id: sentEmailId,
    execution_id: welcome.id,
    status: 2,
    provider_message_id: mail!.providerMessageId,
  });
  expect(logStatuses(sent?.logs)).toEqual([1, 2]);
  expect(await quotaCounter(deps, welcome.client_id, new Date(NOW))).toEqual({ month: 1, day: 1 });
  expect(await dayCapCount(deps, welcome)).toBe(1);
}

afterEach(() => setContainer(undefined));

describe('the executor, exactly once (real DynamoDB adapters)', () => {
  it('dispatches the due welcome execution to the workflow queue at once', async () => {
    // Prepare + Act
    const { queue, welcome } = await queuedWelcome();

    // Assess
    expect(queue.sent).toContainEqual({
      queue: 'workflow',
      message: { client_id: welcome.client_id, execution_id: welcome.id },
      delaySeconds: 0,
    });
    expect(welcome).toMatchObject({ status: 1, scheduled_for: NOW, attempt: 1 });
  });

  it('sends once when SQS delivers one execution message twice, one delivery after the other', async () => {
    // Prepare
    const setup = await queuedWelcome();
    const body = JSON.stringify({ client_id: setup.welcome.client_id, execution_id: setup.welcome.id });

    // Act
    const first = await deliver(setup.deps, [{ messageId: 'm-1', body, receiveCount: 1 }]);
    const second = await deliver(setup.deps, [{ messageId: 'm-1', body, receiveCount: 2 }]);

    // Assess: both acknowledged, one send
    expect(first).toEqual({ batchItemFailures: [] });
    expect(second).toEqual({ batchItemFailures: [] });
    await expectSentOnce(setup);
  });

  it('sends once when one batch carries the same execution twice (handled in parallel)', async () => {
    // Prepare
    const setup = await queuedWelcome(new FakeMailer(50));
    const body = JSON.stringify({ client_id: setup.welcome.client_id, execution_id: setup.welcome.id });

    // Act
    const response = await deliver(setup.deps, [
      { messageId: 'm-1', body, receiveCount: 1 },
      { messageId: 'm-2', body, receiveCount: 1 },
    ]);

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    await expectSentOnce(setup);
  });

  it('sends once when five executors run one execution at once: one completes it, four find it taken or held', async () => {
    // Prepare: a slow provider, so the others arrive while the first is sending
    const setup = await queuedWelcome(new FakeMailer(100));
    const { deps, welcome } = setup;

    // Act
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => executeWorkflow(deps, welcome.client_id, welcome.id)),
    );

    // Assess
    expect(outcomes.filter((o) => o.kind === 'finished')).toEqual([{ kind: 'finished', status: 3 }]);
    // One that read the execution already claimed waits for the claim's lease instead of dropping it.
    expect(outcomes.filter((o) => o.kind === 'duplicate' || o.kind === 'waiting')).toHaveLength(4);
    await expectSentOnce(setup);
  });

  it('ignores a delivery of an execution that does not exist', async () => {
    // Prepare
    const { deps, welcome, mailer } = await queuedWelcome();

    // Act
    const outcome = await executeWorkflow(deps, welcome.client_id, welcome.id + 1);

    // Assess
    expect(outcome).toEqual({ kind: 'missing' });
    expect(mailer.calls).toBe(0);
  });
});

/** A clock the test moves: a throttled send's delayed message arrives when it says. */
class MovableClock implements Clock {
  constructor(private at = Date.parse(NOW)) {}
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

/** The one message a deferral sent (after processing's own): the workflow queue, delayed to the new due time. */
function deferralOf(queue: RecordingQueue, execution: ExecutionRecord) {
  const sent = queue.sent.filter((m) => m.queue === 'workflow').slice(1, 3);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.message).toEqual({ client_id: execution.client_id, execution_id: execution.id });
  return sent[0]!;
}

describe('SES throttling (real DynamoDB adapters)', () => {
  it('defers: the counters given back, the execution queued (1) again after the backoff, one delayed message, nothing thrown', async () => {
    // Prepare
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const { deps, queue, welcome } = await queuedWelcome(mailer);

    // Act
    const outcome = await executeWorkflow(deps, welcome.client_id, welcome.id);

    // Assess
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(mailer.calls).toBe(1);
    expect(mailer.sent).toEqual([]);
    const after = await deps.executions.get(welcome.client_id, welcome.id);
    expect(after).toEqual({
      ...welcome,
      status: 1,
      scheduled_for: expect.any(String),
      reason: 'send_throttled: TooManyRequestsException',
      throttled: 1,
      deferrals: 1,
      updated_at: NOW,
    });
    // The first backoff: 1–2 s, jittered
    const waitMs = Date.parse(after!.scheduled_for) - Date.parse(NOW);
    expect(waitMs).toBeGreaterThanOrEqual(1_000);
    expect(waitMs).toBeLessThanOrEqual(2_000);
    expect(deferralOf(queue, welcome).delaySeconds).toBe(Math.ceil(waitMs / 1000));
    expect(await quotaCounter(deps, welcome.client_id, new Date(NOW))).toEqual({ month: 0, day: 0 });
    expect(await dayCapCount(deps, welcome)).toBe(0);
    // The sent-email record, written before the call, waits queued; its queued log goes with the attempt
    const sent = await deps.sentEmails.getWithLogs(welcome.client_id, sentEmailIdOf(welcome));
    expect(sent?.email).toMatchObject({ status: 1 });
    expect(logStatuses(sent?.logs)).toEqual([]);
  });

  it('sends exactly once when the delayed message arrives, twice at once; the history keeps one queued log', async () => {
    // Prepare
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const clock = new MovableClock();
    const queue = new RecordingQueue();
    const deps = engineDeps(engineContainer({ queue, scheduler: new RecordingScheduler(), mailer, clock }));
    const client = await createTestClient();
    const event = await ingestAndProcess(deps, client.id, {
      type: 'signup',
      email: `once-${randomUUID().slice(0, 8)}@example.com`,
      auto_create_contact: true,
    });
    const welcome = (await executionsOf(deps, event)).get(1)!;
    await executeWorkflow(deps, welcome.client_id, welcome.id);
    const delaySeconds = deferralOf(queue, welcome).delaySeconds!;
    const early = await executeWorkflow(deps, welcome.client_id, welcome.id);

    // Act
    clock.advance(delaySeconds * 1000);
    const outcomes = await Promise.all([
      executeWorkflow(deps, welcome.client_id, welcome.id),
      executeWorkflow(deps, welcome.client_id, welcome.id),
    ]);

    // Assess: a delivery before the new time is sent back for it; then one send
    expect(early).toEqual({ kind: 'not_due' });
    expect(outcomes).toEqual(expect.arrayContaining([{ kind: 'finished', status: 3 }, { kind: 'duplicate' }]));
    expect(mailer.calls).toBe(2);
    expect(mailer.sent).toHaveLength(1);
    expect(await deps.executions.get(welcome.client_id, welcome.id)).toMatchObject({
      status: 3,
      attempt: 1,
      sent_email_id: sentEmailIdOf(welcome),
    });
    const sent = await deps.sentEmails.getWithLogs(welcome.client_id, sentEmailIdOf(welcome));
    expect(sent?.email).toMatchObject({ status: 2, provider_message_id: mailer.sent[0]!.providerMessageId });
    expect(logStatuses(sent?.logs)).toEqual([1, 2]);
    expect(await quotaCounter(deps, welcome.client_id, clock.now())).toEqual({ month: 1, day: 1 });
    expect(await dayCapCount(deps, welcome)).toBe(1);
  });

  it('acknowledges the throttled message (no batch item failure: SQS never redelivers it) and sends the deferral', async () => {
    // Prepare
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const { deps, queue, welcome } = await queuedWelcome(mailer);
    const body = JSON.stringify({ client_id: welcome.client_id, execution_id: welcome.id });

    // Act
    const first = await deliver(deps, [{ messageId: 'm-1', body, receiveCount: 1 }]);

    // Assess
    expect(first).toEqual({ batchItemFailures: [] });
    expect(deferralOf(queue, welcome).delaySeconds).toBeGreaterThanOrEqual(1);
    expect(await deps.executions.get(welcome.client_id, welcome.id)).toMatchObject({ status: 1, throttled: 1 });
  });

  it('with FAULTS-style injected throttles, through the local SQS: deferred twice, sent once, every delivery a first one, no dead letter', {
    timeout: 30_000,
  }, async () => {
    // Prepare: the real execute-workflow function on the in-process SQS, the real clock (the delays are real), and the
    // fault injector's FaultyMailer whose dice throttle the first two sends (draws 0, 0), then none (0.99)
    const draws = [0, 0];
    const mailer = new FakeMailer();
    const faulty = new FaultyMailer(
      mailer,
      new FaultDice([{ kind: 'throttle', rate: 0.5 }], () => draws.shift() ?? 0.99),
    );
    const queue = new LocalQueue();
    const deps = engineDeps(engineContainer({ queue, scheduler: new RecordingScheduler(), mailer: faulty }));
    setContainer(deps.container);
    await import('../../../functions/queue/execute-workflow.js');
    const client = await createTestClient();
    const event = await ingestAndProcess(deps, client.id, {
      type: 'signup',
      email: `throttled-${randomUUID().slice(0, 8)}@example.com`,
      auto_create_contact: true,
    });
    // Processing sent the execution its first message, which waits in the queue for the consumer
    const welcome = (await executionsOf(deps, event)).get(1)!;
    const dispatcher = createQueueDispatcher();
    const receiveCounts: number[] = [];

    // Act: a visibility timeout longer than the test, so a redelivery could not hide among the deferrals
    queue.consume('workflow', {
      batchSize: 1,
      maxReceiveCount: 2,
      visibilityTimeoutMs: 60_000,
      deliver: (batch) => {
        receiveCounts.push(...batch.map((d) => d.receiveCount));
        return dispatcher.deliver('workflow', batch);
      },
    });
    const done = await eventually(
      'the execution completed',
      async () => {
        const e = await deps.executions.get(welcome.client_id, welcome.id);
        return e?.status === 3 ? e : undefined;
      },
      { timeoutMs: 20_000 },
    );
    await queue.idle(5_000);
    await queue.stop();

    // Assess
    expect(faulty.counts).toEqual({ calls: 3, injected: { throttle: 2 }, total: 2 });
    expect(mailer.sent).toHaveLength(1);
    expect(done).toMatchObject({ status: 3, attempt: 1, throttled: 2, sent_email_id: sentEmailIdOf(welcome) });
    expect(receiveCounts).toEqual([1, 1, 1]);
    expect(queue.deadLetters).toEqual([]);
    expect(queue.depth('workflow')).toBe(0);
    expect(await quotaCounter(deps, welcome.client_id, new Date())).toEqual({ month: 1, day: 1 });
  });
});
