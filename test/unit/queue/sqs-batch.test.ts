import { readFileSync } from 'node:fs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { FixedClock } from '../../../shared/adapters/memory/client-stores.js';
import { createContainer, setContainer } from '../../../shared/composition/container.js';
import { clock } from '../../../shared/composition/providers/clock.js';
import { loadConfig } from '../../../shared/config.js';
import { PermanentFailure } from '../../../shared/errors.js';
import { logger } from '../../../shared/logger.js';
import { sqsBatch } from '../../../shared/queue/sqs-batch.js';

const sample = JSON.parse(
  readFileSync(new URL('../../../events-samples/sqs-workflow-batch.json', import.meta.url), 'utf8'),
) as SQSEvent;
const [first, second] = sample.Records as [SQSRecord, SQSRecord];
const context = {
  awsRequestId: 'aws-req',
  functionName: 'execute-workflow',
  getRemainingTimeInMillis: () => 1000,
} as unknown as Context;

const ExecutionMessage = z.object({
  client_id: z.int().check(z.positive()),
  execution_id: z.int().check(z.positive()),
});
type Message = z.infer<typeof ExecutionMessage>;

const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const withBody = (record: SQSRecord, body: string, messageId = `${record.messageId}-x`): SQSRecord => ({
  ...record,
  messageId,
  body,
});

const fixedClock = new FixedClock(new Date('2026-01-15T10:00:00.000Z'));
let warnings: unknown[][];
let errors: unknown[][];

beforeEach(() => {
  setContainer(createContainer({ config: loadConfig({}), overrides: { clock: fixedClock } }));
  warnings = [];
  errors = [];
  vi.spyOn(logger, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
  vi.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
  setContainer(undefined);
});

describe('sqsBatch', () => {
  it('hands every parsed message to the handler with its ports and acknowledges the whole batch', async () => {
    // Prepare
    const seen: { message: Message; now: string; receiveCount: number; messageId: string }[] = [];
    const handler = sqsBatch(ExecutionMessage, [clock], async (message, { deps, receiveCount, messageId }) => {
      seen.push({ message, now: deps.clock.now().toISOString(), receiveCount, messageId });
    });

    // Act
    const response = await handler(sample, context);

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([
      {
        message: { client_id: 7, execution_id: 1042 },
        now: '2026-01-15T10:00:00.000Z',
        receiveCount: 1,
        messageId: first.messageId,
      },
      {
        message: { client_id: 7, execution_id: 1043 },
        now: '2026-01-15T10:00:00.000Z',
        receiveCount: 3,
        messageId: second.messageId,
      },
    ]);
  });

  it('reports a message whose handler throws, so SQS delivers it again (then to the DLQ), and keeps the others', async () => {
    // Prepare
    const handler = sqsBatch(ExecutionMessage, [], async (message) => {
      if (message.execution_id === 1043) throw new Error('DynamoDB throttled');
    });

    // Act
    const response = await handler(sample, context);

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: second.messageId }] });
    expect(warnings).toEqual([
      [
        'message failed; SQS delivers it again',
        expect.objectContaining({ message_id: second.messageId, receive_count: 3 }),
      ],
    ]);
  });

  it('reports every message when all of them fail, instead of throwing for the whole batch', async () => {
    const handler = sqsBatch(ExecutionMessage, [], async () => {
      throw new Error('table unreachable');
    });

    const response = await handler(sample, context);

    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([first.messageId, second.messageId]);
  });

  it('records a PermanentFailure through onPermanentFailure and acknowledges the message', async () => {
    // Prepare
    const recorded: { message: Message; reason: string }[] = [];
    const handler = sqsBatch(
      ExecutionMessage,
      [],
      async (message) => {
        if (message.execution_id === 1042) throw new PermanentFailure('contact_erased', 'the contact no longer exists');
      },
      { onPermanentFailure: async (message, failure) => void recorded.push({ message, reason: failure.reason }) },
    );

    // Act
    const response = await handler(sample, context);

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(recorded).toEqual([{ message: { client_id: 7, execution_id: 1042 }, reason: 'contact_erased' }]);
    expect(warnings).toEqual([
      [
        'message failed permanently; acknowledged',
        expect.objectContaining({ message_id: first.messageId, reason: 'contact_erased' }),
      ],
    ]);
  });

  it('retries a permanent failure whose recording failed, so the outcome is never lost', async () => {
    const handler = sqsBatch(
      ExecutionMessage,
      [],
      async () => {
        throw new PermanentFailure('rejected');
      },
      {
        onPermanentFailure: async () => {
          throw new Error('could not write the execution');
        },
      },
    );

    const response = await handler(batch(first), context);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: first.messageId }] });
  });

  it.each([
    ['a body that is not JSON', 'client_id=7&execution_id=1042', 'message body is not JSON; it goes to the DLQ'],
    ['a body missing a field', '{"client_id":7}', 'message body does not match its schema; it goes to the DLQ'],
    [
      'a body with a wrong type',
      '{"client_id":"7","execution_id":1042}',
      'message body does not match its schema; it goes to the DLQ',
    ],
  ])(
    'never calls the handler for %s: it is reported (→ DLQ) and logged without its values',
    async (_name, body, line) => {
      // Prepare
      const handle = vi.fn(async () => undefined);
      const handler = sqsBatch(ExecutionMessage, [], handle);
      const malformed = withBody(first, body);

      // Act
      const response = await handler(batch(malformed, second), context);

      // Assess
      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: malformed.messageId }] });
      expect(handle).toHaveBeenCalledTimes(1);
      expect(errors).toEqual([[line, expect.objectContaining({ message_id: malformed.messageId })]]);
      expect(JSON.stringify(errors)).not.toContain('1042');
    },
  );

  it('names the fields of a body that does not match, as error items', async () => {
    const handler = sqsBatch(ExecutionMessage, [], async () => undefined);

    await handler(batch(withBody(first, '{"client_id":-1}')), context);

    expect(errors[0]?.[1]).toMatchObject({
      errors: [
        { condition: 'min', key: 'client_id' },
        { condition: 'required', key: 'execution_id' },
      ],
    });
  });

  it('processes the records of a batch one after the other when asked to', async () => {
    // Prepare
    const order: string[] = [];
    const handler = sqsBatch(
      ExecutionMessage,
      [],
      async (message) => {
        order.push(`start ${message.execution_id}`);
        await new Promise((resolve) => setTimeout(resolve, message.execution_id === 1042 ? 20 : 0));
        order.push(`end ${message.execution_id}`);
      },
      { processInParallel: false },
    );

    // Act
    await handler(sample, context);

    // Assess
    expect(order).toEqual(['start 1042', 'end 1042', 'start 1043', 'end 1043']);
  });
});
