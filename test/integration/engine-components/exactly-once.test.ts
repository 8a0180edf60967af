import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toSqsEvent } from '../../../local/queue-functions.js';
import { createLambdaContext } from '../../../local/lambda-context.js';
import { setContainer } from '../../../shared/composition/container.js';
import { executeWorkflow, sentEmailIdOf } from '../../../shared/domain/executions/execute-workflow.js';
import type { ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import { createTestClient } from '../support/clients.js';
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
  const deps = engineDeps(engineContainer({ queue, scheduler: new RecordingScheduler(), mailer, clock: fixedClock(NOW) }));
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
  return handler(toSqsEvent('workflow', records.map((r) => ({ ...r, sentAt: Date.parse(NOW) }))), context);
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
  expect(sent?.email).toMatchObject({ id: sentEmailId, execution_id: welcome.id, status: 2, provider_message_id: mail!.providerMessageId });
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
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => executeWorkflow(deps, welcome.client_id, welcome.id)));

    // Assess
    expect(outcomes.filter((o) => o.kind === 'finished')).toEqual([{ kind: 'finished', status: 3 }]);
    // One that read the execution already claimed waits for the claim's lease (issue 18) instead of dropping it.
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

describe('SES throttling (real DynamoDB adapters)', () => {
  it('throws, gives the counters back and keeps the execution executing with retry_pending', async () => {
    // Prepare
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const { deps, welcome } = await queuedWelcome(mailer);

    // Act
    const run = executeWorkflow(deps, welcome.client_id, welcome.id);

    // Assess: thrown for the queue to retry
    await expect(run).rejects.toMatchObject({ name: 'TooManyRequestsException' });
    expect(mailer.calls).toBe(1);
    expect(mailer.sent).toEqual([]);
    expect(await deps.executions.get(welcome.client_id, welcome.id)).toEqual({
      ...welcome,
      status: 2,
      retry_pending: true,
      reason: 'send_retry: TooManyRequestsException',
      attempt: 2,
      updated_at: NOW,
    });
    expect(await quotaCounter(deps, welcome.client_id, new Date(NOW))).toEqual({ month: 0, day: 0 });
    expect(await dayCapCount(deps, welcome)).toBe(0);
    // The sent-email record, written before the call, waits queued for the retry
    const sent = await deps.sentEmails.getWithLogs(welcome.client_id, sentEmailIdOf(welcome));
    expect(sent?.email).toMatchObject({ status: 1 });
    expect(sent?.email.provider_message_id).toBeUndefined();
    // Its queued log goes with the attempt: the retry's claim writes one again, so the history keeps one
    expect(logStatuses(sent?.logs)).toEqual([]);
  });

  it('sends exactly once on the next delivery after a throttled one', async () => {
    // Prepare
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const setup = await queuedWelcome(mailer);
    const { deps, welcome } = setup;
    await executeWorkflow(deps, welcome.client_id, welcome.id).catch(() => undefined);

    // Act
    const outcome = await executeWorkflow(deps, welcome.client_id, welcome.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: 3 });
    expect(mailer.calls).toBe(2);
    expect(mailer.sent).toHaveLength(1);
    const after = await deps.executions.get(welcome.client_id, welcome.id);
    expect(after).toMatchObject({ status: 3, attempt: 2, sent_email_id: sentEmailIdOf(welcome) });
    expect(after?.retry_pending).toBeUndefined();
    const sent = await deps.sentEmails.getWithLogs(welcome.client_id, sentEmailIdOf(welcome));
    expect(sent?.email).toMatchObject({ status: 2, provider_message_id: mailer.sent[0]!.providerMessageId });
    expect(await quotaCounter(deps, welcome.client_id, new Date(NOW))).toEqual({ month: 1, day: 1 });
    expect(await dayCapCount(deps, welcome)).toBe(1);
  });

  it('keeps one queued log in the sent e-mail\'s history when a throttled send is retried', async () => {
    // Prepare
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const { deps, welcome } = await queuedWelcome(mailer);
    await executeWorkflow(deps, welcome.client_id, welcome.id).catch(() => undefined);

    // Act
    await executeWorkflow(deps, welcome.client_id, welcome.id);

    // Assess: the e-mail was queued once and sent once
    const sent = await deps.sentEmails.getWithLogs(welcome.client_id, sentEmailIdOf(welcome));
    expect(logStatuses(sent?.logs)).toEqual([1, 2]);
  });

  it('reports the throttled message as a batch item failure (SQS redelivers it), then acknowledges the redelivery', async () => {
    // Prepare
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const { deps, welcome } = await queuedWelcome(mailer);
    const body = JSON.stringify({ client_id: welcome.client_id, execution_id: welcome.id });

    // Act
    const first = await deliver(deps, [{ messageId: 'm-1', body, receiveCount: 1 }]);
    const redelivered = await deliver(deps, [{ messageId: 'm-1', body, receiveCount: 2 }]);

    // Assess
    expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(redelivered).toEqual({ batchItemFailures: [] });
    expect(mailer.sent).toHaveLength(1);
    expect(await deps.executions.get(welcome.client_id, welcome.id)).toMatchObject({ status: 3 });
  });
});
