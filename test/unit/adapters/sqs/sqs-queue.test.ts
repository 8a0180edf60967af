import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsQueue } from '../../../../shared/adapters/sqs/sqs-queue.js';

const client = new SQSClient({ region: 'us-east-1' });
const sqsMock = mockClient(client);
afterEach(() => sqsMock.reset());

const EVENTS_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/events-queue';
const WORKFLOW_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/workflow-queue';
const queue = new SqsQueue(client, { events: EVENTS_URL, workflow: WORKFLOW_URL });

describe('SqsQueue', () => {
  it('sends one message to the named queue, the message as JSON, for delivery now', async () => {
    // Prepare
    sqsMock.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    // Act
    await queue.send('workflow', { client_id: 7, execution_id: 42 });
    // Assess
    expect(sqsMock.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: WORKFLOW_URL, MessageBody: '{"client_id":7,"execution_id":42}', DelaySeconds: 0 },
    ]);
  });

  it('sends to the events queue by its own URL', async () => {
    // Prepare
    sqsMock.on(SendMessageCommand).resolves({});
    // Act
    await queue.send('events', { client_id: 7, event_id: 3 });
    // Assess
    expect(sqsMock.commandCalls(SendMessageCommand)[0]?.args[0].input).toEqual({
      QueueUrl: EVENTS_URL,
      MessageBody: '{"client_id":7,"event_id":3}',
      DelaySeconds: 0,
    });
  });

  it.each([
    { delaySeconds: 0, sent: 0 },
    { delaySeconds: 1, sent: 1 },
    { delaySeconds: 12.3, sent: 13 },
    { delaySeconds: 899.001, sent: 900 },
    { delaySeconds: 900, sent: 900 },
    { delaySeconds: -5, sent: 0 },
  ])(
    'sends a delay of $delaySeconds s as DelaySeconds $sent (whole seconds, never early)',
    async ({ delaySeconds, sent }) => {
      // Prepare
      sqsMock.on(SendMessageCommand).resolves({});
      // Act
      await queue.send('workflow', { client_id: 1, execution_id: 1 }, { delaySeconds });
      // Assess
      expect(sqsMock.commandCalls(SendMessageCommand)[0]?.args[0].input.DelaySeconds).toBe(sent);
    },
  );

  it.each([901, 3600, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses a delay of %s s and sends nothing',
    async (delaySeconds) => {
      // Prepare
      sqsMock.on(SendMessageCommand).resolves({});
      // Act
      const sending = queue.send('workflow', { client_id: 1, execution_id: 1 }, { delaySeconds });
      // Assess
      await expect(sending).rejects.toThrow(RangeError);
      expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
    },
  );

  it('refuses a queue it has no URL for and sends nothing', async () => {
    // Prepare
    const eventsOnly = new SqsQueue(client, { events: EVENTS_URL });
    // Act
    const sending = eventsOnly.send('workflow', { client_id: 1, execution_id: 1 });
    // Assess
    await expect(sending).rejects.toThrow('no URL configured for the workflow queue');
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('lets an SQS failure reach the caller, so the message is not taken as sent', async () => {
    // Prepare
    sqsMock.on(SendMessageCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'RequestThrottled' }));
    // Act
    const sending = queue.send('events', { client_id: 1, event_id: 1 });
    // Assess
    await expect(sending).rejects.toMatchObject({ name: 'RequestThrottled' });
  });
});
