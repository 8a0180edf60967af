import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalQueue } from '../../../local/engine/local-queue.js';
import { createLambdaContext } from '../../../local/lambda-context.js';
import { createQueueDispatcher, toSqsEvent } from '../../../local/queue-functions.js';
import { setContainer } from '../../../shared/composition/container.js';
import { ingestEvent } from '../../../shared/domain/events/ingest-event.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import type { EventMessage } from '../../../shared/platform.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import {
  engineContainer,
  engineDeps,
  FakeMailer,
  fixedClock,
  RecordingQueue,
  RecordingScheduler,
  type EngineDeps,
} from '../support/engine-components.js';

// The failures below are the point of the tests; their log lines would bury the report (INTEGRATION_LOG_LEVEL shows them).
vi.hoisted(() => {
  process.env['POWERTOOLS_LOG_LEVEL'] = process.env['INTEGRATION_LOG_LEVEL'] ?? 'SILENT';
});

const NOW = '2030-02-01T10:00:00.000Z';

/** A stored, still queued signup event of a fresh client: the pointer a good message carries. */
async function storedEvent(deps: EngineDeps): Promise<EventMessage> {
  const client = await createTestClient();
  const body = { type: 'signup', email: `poison-${randomUUID().slice(0, 8)}@example.com`, auto_create_contact: true };
  const { event } = await ingestEvent(deps, client.id, EventBody.parse(body), body, 'async');
  return { client_id: client.id, event_id: event.id };
}

afterEach(() => setContainer(undefined));

describe('process-events with poison messages (real handler, real DynamoDB adapters)', () => {
  it('reports a body that is not JSON and one that is no event pointer as batch item failures, and processes the good one', async () => {
    // Prepare
    const deps = engineDeps(
      engineContainer({
        queue: new RecordingQueue(),
        scheduler: new RecordingScheduler(),
        mailer: new FakeMailer(),
        clock: fixedClock(NOW),
      }),
    );
    setContainer(deps.container);
    const good = await storedEvent(deps);
    const { handler } = await import('../../../functions/queue/process-events.js');
    const records = [
      { messageId: 'not-json', body: 'client_id=1&event_id=2', receiveCount: 1, sentAt: Date.parse(NOW) },
      {
        messageId: 'wrong-shape',
        body: JSON.stringify({ client_id: 'seven', event: 1 }),
        receiveCount: 1,
        sentAt: Date.parse(NOW),
      },
      { messageId: 'good', body: JSON.stringify(good), receiveCount: 1, sentAt: Date.parse(NOW) },
    ];

    // Act
    const response = await handler(
      toSqsEvent('events', records),
      createLambdaContext({ functionName: 'process-events', awsRequestId: randomUUID() }),
    );

    // Assess
    expect(response).toEqual({
      batchItemFailures: [{ itemIdentifier: 'not-json' }, { itemIdentifier: 'wrong-shape' }],
    });
    expect(await deps.events.get(good.client_id, good.event_id)).toMatchObject({
      queue_status: 'processed',
      execution_ids: [expect.any(Number), expect.any(Number)],
    });
  });

  it('acknowledges a well-formed pointer to an event that does not exist (nothing could ever process it)', async () => {
    // Prepare
    const deps = engineDeps(
      engineContainer({
        queue: new RecordingQueue(),
        scheduler: new RecordingScheduler(),
        mailer: new FakeMailer(),
        clock: fixedClock(NOW),
      }),
    );
    setContainer(deps.container);
    const client = await createTestClient();
    const { handler } = await import('../../../functions/queue/process-events.js');
    const body = JSON.stringify({ client_id: client.id, event_id: 42 });

    // Act
    const response = await handler(
      toSqsEvent('events', [{ messageId: 'gone', body, receiveCount: 1, sentAt: Date.parse(NOW) }]),
      createLambdaContext({ functionName: 'process-events', awsRequestId: randomUUID() }),
    );

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
  });

  it('moves a poison message to the DLQ after maxReceiveCount deliveries through the local SQS, and no other', async () => {
    // Prepare: the local SQS with the real process-events function consuming the events queue (warm: imported once)
    const queue = new LocalQueue();
    const deps = engineDeps(
      engineContainer({ queue, scheduler: new RecordingScheduler(), mailer: new FakeMailer(), clock: fixedClock(NOW) }),
    );
    setContainer(deps.container);
    await import('../../../functions/queue/process-events.js');
    const good = await storedEvent(deps);
    const poison = { client_id: 'seven', event: 1 } as unknown as EventMessage;
    await queue.send('events', poison);
    await queue.send('events', good);
    const dispatcher = createQueueDispatcher();

    // Act: a visibility timeout well above one batch's run, so deliveries never overlap
    queue.consume('events', {
      batchSize: 10,
      maxReceiveCount: 3,
      visibilityTimeoutMs: 500,
      deliver: (deliveries) => dispatcher.deliver('events', deliveries),
    });
    await eventually('the poison message in the DLQ', async () => (queue.deadLetters.length > 0 ? true : undefined));
    await queue.idle(5_000);

    // Assess
    expect(queue.deadLetters).toEqual([
      { queue: 'events', messageId: expect.any(String), body: JSON.stringify(poison), receiveCount: 3 },
    ]);
    expect(queue.depth('events')).toBe(0);
    expect(await deps.events.get(good.client_id, good.event_id)).toMatchObject({ queue_status: 'processed' });
    await queue.stop();
  });

  it('never delivers a poison message more than maxReceiveCount times, even when a run outlasts the visibility timeout', async () => {
    // Prepare: each run starts 100 ms late (a cold start), the visibility timeout is 20 ms — redeliveries overlap
    // the run still going, as SQS redelivers while a slow function runs
    const queue = new LocalQueue();
    const deps = engineDeps(
      engineContainer({ queue, scheduler: new RecordingScheduler(), mailer: new FakeMailer(), clock: fixedClock(NOW) }),
    );
    setContainer(deps.container);
    await import('../../../functions/queue/process-events.js');
    const poison = { client_id: 'seven', event: 1 } as unknown as EventMessage;
    await queue.send('events', poison);
    const dispatcher = createQueueDispatcher();
    const receiveCounts: number[] = [];

    // Act
    queue.consume('events', {
      batchSize: 10,
      maxReceiveCount: 3,
      visibilityTimeoutMs: 20,
      deliver: async (batch) => {
        receiveCounts.push(...batch.map((d) => d.receiveCount));
        await new Promise((resolve) => setTimeout(resolve, 100));
        return dispatcher.deliver('events', batch);
      },
    });
    await eventually('the poison message in the DLQ', async () => (queue.deadLetters.length > 0 ? true : undefined));
    await queue.idle(5_000);

    // Assess: SQS moves a message to the DLQ instead of delivering it a (maxReceiveCount + 1)th time
    expect(Math.max(...receiveCounts)).toBeLessThanOrEqual(3);
    expect(queue.deadLetters).toEqual([
      { queue: 'events', messageId: expect.any(String), body: JSON.stringify(poison), receiveCount: 3 },
    ]);
    await queue.stop();
  });
});
