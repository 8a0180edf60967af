import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { senderSizing } from '../../../functions/queue-sizing.js';
import { type QueueFunctionDefinition, queueFunctions } from '../../../functions/queues.js';
import { createQueueDispatcher, type LocalDelivery } from '../../../local/queue-functions.js';
import { PermanentFailure } from '../../../shared/errors.js';
import { logger } from '../../../shared/logger.js';
import { sqsBatch } from '../../../shared/queue/sqs-batch.js';

const TABLE: QueueFunctionDefinition[] = [
  { handler: 'execute-workflow', queue: 'workflow', tableAccess: 'readWrite', batchSize: 5 },
];
const delivery = (id: string, body: unknown, receiveCount = 1): LocalDelivery => ({
  messageId: id,
  body: JSON.stringify(body),
  receiveCount,
  sentAt: 1_768_471_200_000,
});

// The handlers' expected WARN/ERROR lines stay out of the test output.
beforeEach(() => {
  vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
  vi.spyOn(logger, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('local queue dispatcher', () => {
  it('delivers an SQS-shaped batch to the function the table names for the queue', async () => {
    // Prepare
    const events: SQSEvent[] = [];
    const loaded: string[] = [];
    const dispatcher = createQueueDispatcher({
      queueFunctions: TABLE,
      loadHandler: async (definition) => {
        loaded.push(definition.handler);
        return async (event) => void events.push(event);
      },
    });

    // Act
    const result = await dispatcher.deliver('workflow', [delivery('m-1', { client_id: 7, execution_id: 1 }, 2)]);

    // Assess
    expect(result).toEqual({ failed: [] });
    expect(loaded).toEqual(['execute-workflow']);
    expect(events[0]!.Records[0]).toMatchObject({
      messageId: 'm-1',
      body: '{"client_id":7,"execution_id":1}',
      eventSource: 'aws:sqs',
      attributes: { ApproximateReceiveCount: '2' },
    });
    expect(dispatcher.batchSizeOf('workflow')).toBe(5);
  });

  it('reads the partial batch response of an sqsBatch handler back as the ids to deliver again', async () => {
    // Prepare: one retryable failure, one permanent (acknowledged), one malformed body (retried → DLQ).
    const handler = sqsBatch(z.object({ client_id: z.int(), execution_id: z.int() }), [], async (message) => {
      if (message.execution_id === 2) throw new Error('throttled');
      if (message.execution_id === 3) throw new PermanentFailure('contact_erased');
    });
    const dispatcher = createQueueDispatcher({ queueFunctions: TABLE, loadHandler: async () => handler });

    // Act
    const result = await dispatcher.deliver('workflow', [
      delivery('ok', { client_id: 7, execution_id: 1 }),
      delivery('retry', { client_id: 7, execution_id: 2 }),
      delivery('permanent', { client_id: 7, execution_id: 3 }),
      delivery('malformed', { client_id: 7 }),
    ]);

    // Assess
    expect(result.failed.sort()).toEqual(['malformed', 'retry']);
  });

  it('delivers every message again when the function throws', async () => {
    const dispatcher = createQueueDispatcher({
      queueFunctions: TABLE,
      loadHandler: async () => async () => {
        throw new Error('init failed');
      },
    });

    const result = await dispatcher.deliver('workflow', [delivery('a', {}), delivery('b', {})]);

    expect(result).toEqual({ failed: ['a', 'b'] });
  });

  it("polls each queue as its function's mapping is sized on AWS, from the same table", () => {
    // Prepare
    const dispatcher = createQueueDispatcher({ sesMaxSendRate: 50 });
    const entry = (queue: string) => queueFunctions.find((d) => d.queue === queue)!;

    // Act + Assess: a function of its own concurrency keeps it; the sender is sized for the SES rate.
    expect(dispatcher.sizingOf('events')).toEqual({ batchSize: 10, maxConcurrency: entry('events').maxConcurrency });
    expect(dispatcher.sizingOf('workflow')).toEqual(senderSizing(50, 10));
    expect(createQueueDispatcher({ sesMaxSendRate: 14 }).sizingOf('workflow')).toEqual({
      batchSize: 1,
      maxConcurrency: 2,
    });
    for (const fn of queueFunctions) expect(dispatcher.sizingOf(fn.queue).maxConcurrency).toBeLessThanOrEqual(1000);
  });

  it('refuses a queue that no function consumes', async () => {
    const dispatcher = createQueueDispatcher({ queueFunctions: TABLE });

    await expect(dispatcher.deliver('events', [])).rejects.toThrow(
      /no function in functions\/queues.ts consumes the "events" queue/,
    );
  });
});
