import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueBatchError, SqsQueue } from '../../../../shared/adapters/sqs/sqs-queue.js';
import type { BatchMessage } from '../../../../shared/platform.js';

const client = new SQSClient({ region: 'us-east-1' });
const sqsMock = mockClient(client);
afterEach(() => sqsMock.reset());

const EVENTS_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/events-queue';
const FAST_BACKOFF = { attempts: 4, baseMs: 1, maxMs: 1 };
const queue = new SqsQueue(client, { events: EVENTS_URL }, { backoff: FAST_BACKOFF });

const events = (count: number, from = 1): BatchMessage<'events'>[] =>
  Array.from({ length: count }, (_, i) => ({ message: { client_id: 7, event_id: from + i } }));
const entry = (id: string, eventId: number, delaySeconds = 0) => ({
  Id: id,
  MessageBody: `{"client_id":7,"event_id":${eventId}}`,
  DelaySeconds: delaySeconds,
});
const batchInputs = () => sqsMock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
const failure = (id: string, senderFault = false) => ({
  Id: id,
  SenderFault: senderFault,
  Code: 'InternalError',
  Message: 'try again',
});

describe('SqsQueue.sendBatch', () => {
  it('sends 10 entries a call, each with an Id unique in its call, the message as JSON, for delivery now', async () => {
    // Prepare
    sqsMock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    // Act
    await queue.sendBatch('events', events(23));
    // Assess
    expect(batchInputs()).toEqual([
      { QueueUrl: EVENTS_URL, Entries: Array.from({ length: 10 }, (_, i) => entry(String(i), 1 + i)) },
      { QueueUrl: EVENTS_URL, Entries: Array.from({ length: 10 }, (_, i) => entry(String(i), 11 + i)) },
      { QueueUrl: EVENTS_URL, Entries: [entry('0', 21), entry('1', 22), entry('2', 23)] },
    ]);
  });

  it("sends each entry's delay as whole seconds, never early", async () => {
    // Prepare
    sqsMock.on(SendMessageBatchCommand).resolves({});
    // Act
    await queue.sendBatch('events', [
      { message: { client_id: 7, event_id: 1 }, options: { delaySeconds: 12.3 } },
      { message: { client_id: 7, event_id: 2 } },
    ]);
    // Assess
    expect(batchInputs()).toEqual([{ QueueUrl: EVENTS_URL, Entries: [entry('0', 1, 13), entry('1', 2, 0)] }]);
  });

  it('sends nothing for no message, and nothing at all when one delay is out of range', async () => {
    // Prepare
    sqsMock.on(SendMessageBatchCommand).resolves({});
    // Act
    await queue.sendBatch('events', []);
    const sending = queue.sendBatch('events', [
      ...events(12),
      { message: { client_id: 7, event_id: 99 }, options: { delaySeconds: 901 } },
    ]);
    // Assess
    await expect(sending).rejects.toThrow(RangeError);
    expect(batchInputs()).toEqual([]);
  });

  it('sends again, alone, the entries SQS answered in Failed, and resolves once they are accepted', async () => {
    // Prepare
    sqsMock
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [failure('3'), failure('7')] })
      .resolvesOnce({ Failed: [failure('7')] })
      .resolves({});
    // Act
    await queue.sendBatch('events', events(10));
    // Assess: the retry keeps each entry's Id, so a second failure still names it.
    expect(batchInputs()).toEqual([
      { QueueUrl: EVENTS_URL, Entries: Array.from({ length: 10 }, (_, i) => entry(String(i), 1 + i)) },
      { QueueUrl: EVENTS_URL, Entries: [entry('3', 4), entry('7', 8)] },
      { QueueUrl: EVENTS_URL, Entries: [entry('7', 8)] },
    ]);
  });

  it('rejects naming how many were not accepted once an entry failed on every attempt', async () => {
    // Prepare
    sqsMock.on(SendMessageBatchCommand).callsFake((input: { Entries: { Id: string }[] }) => ({
      Failed: input.Entries.filter((e) => e.Id === '1').map((e) => failure(e.Id)),
    }));
    // Act
    const sending = queue.sendBatch('events', events(25));
    // Assess: 3 calls, then 3 more attempts of the one failing entry in the first call.
    await expect(sending).rejects.toThrow(new QueueBatchError('events', 3, 25, 'InternalError: try again').message);
    await expect(sending).rejects.toMatchObject({ name: 'QueueBatchError', failed: 3, total: 25 });
    expect(batchInputs()).toHaveLength(3 + 3 * 3);
  });

  it('does not retry an entry refused as the sender’s fault', async () => {
    // Prepare
    sqsMock
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [failure('0', true)] })
      .resolves({});
    // Act
    const sending = queue.sendBatch('events', events(4));
    // Assess
    await expect(sending).rejects.toMatchObject({ failed: 1, total: 4 });
    expect(batchInputs()).toHaveLength(1);
  });

  it('stops starting calls once one throws (SQS unavailable), counting those never sent as not accepted', async () => {
    // Prepare
    const oneAtATime = new SqsQueue(client, { events: EVENTS_URL }, { concurrency: 1, backoff: FAST_BACKOFF });
    const outage = Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable' });
    sqsMock.on(SendMessageBatchCommand).resolvesOnce({}).rejects(outage);
    // Act
    const sending = oneAtATime.sendBatch('events', events(40));
    // Assess
    await expect(sending).rejects.toMatchObject({ failed: 30, total: 40, cause: outage });
    expect(batchInputs()).toHaveLength(2);
  });

  it('keeps at most 10 calls in flight', async () => {
    // Prepare
    let inFlight = 0;
    let most = 0;
    sqsMock.on(SendMessageBatchCommand).callsFake(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight -= 1;
      return {};
    });
    // Act
    await queue.sendBatch('events', events(1_000));
    // Assess
    expect(batchInputs()).toHaveLength(100);
    expect(most).toBe(10);
  });

  it('refuses a queue it has no URL for and sends nothing', async () => {
    // Prepare
    const workflowOnly = new SqsQueue(client, { workflow: EVENTS_URL });
    // Act
    const sending = workflowOnly.sendBatch('events', events(1));
    // Assess
    await expect(sending).rejects.toThrow('no URL configured for the events queue');
    expect(batchInputs()).toEqual([]);
  });
});
