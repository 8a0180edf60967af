import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { FaultyRequestHandler } from '../../../../shared/adapters/faults/dynamo-faults.js';
import { createFaultInjection, faultSettingsFromEnv } from '../../../../shared/adapters/faults/fault-injection.js';
import { FaultSpecError } from '../../../../shared/adapters/faults/fault-spec.js';
import { FaultyMailer } from '../../../../shared/adapters/faults/faulty-mailer.js';
import { FaultyQueue } from '../../../../shared/adapters/faults/faulty-queue.js';
import type { Mailer, Queue } from '../../../../shared/platform.js';

const mailer: Mailer = { send: async () => ({ kind: 'sent', providerMessageId: 'ses-1' }) };
const queue: Queue = { send: async () => {}, sendBatch: async () => {} };
const email = { from: 'a@acme.example', to: 'b@example.com', subject: 's', html: 'h', text: 't' };

describe('faultSettingsFromEnv', () => {
  it.each([{}, { FAULTS: '' }, { FAULTS: '  ' }, { FAULTS_SEED: '5' }])('is off for %j', (env) => {
    // Act
    const settings = faultSettingsFromEnv(env);
    // Assess
    expect(settings).toBeUndefined();
  });

  it('reads FAULTS and FAULTS_SEED', () => {
    // Act
    const settings = faultSettingsFromEnv({ FAULTS: ' sqs:send-fail:0.02 ', FAULTS_SEED: '42' });
    // Assess
    expect(settings).toEqual({ spec: 'sqs:send-fail:0.02', seed: '42' });
  });
});

describe('FaultInjection', () => {
  it('names the active faults and the seed that replays them in one line', () => {
    // Act
    const faults = createFaultInjection({
      spec: 'ses:reset-after-send:0.05,dynamo:throttle:0.05,sqs:send-fail:0.02',
      seed: '1234',
    });
    // Assess
    expect(faults.describe()).toBe(
      'Fault injection: FAULTS=ses:reset-after-send:0.05,dynamo:throttle:0.05,sqs:send-fail:0.02 FAULTS_SEED=1234',
    );
  });

  it('picks and prints a random seed when none is given', () => {
    // Act
    const faults = createFaultInjection({ spec: 'ses:throttle:0.1' });
    // Assess
    expect(faults.describe()).toBe(`Fault injection: FAULTS=ses:throttle:0.1 FAULTS_SEED=${faults.seed}`);
  });

  it('refuses a bad FAULTS before wrapping anything', () => {
    // Act
    const act = () => createFaultInjection({ spec: 'ses:explode:0.1' });
    // Assess
    expect(act).toThrow(FaultSpecError);
  });

  it('wraps only the targets that have rules, and counts only those', () => {
    // Prepare
    const faults = createFaultInjection({ spec: 'ses:throttle:1', seed: 1 });
    const client = new DynamoDBClient({ region: 'us-east-1' });
    const original = client.config.requestHandler;
    // Act
    const wrappedMailer = faults.mailer(mailer);
    const wrappedQueue = faults.queue(queue);
    faults.dynamo(client);
    // Assess
    expect(wrappedMailer).toBeInstanceOf(FaultyMailer);
    expect(wrappedQueue).toBe(queue);
    expect(client.config.requestHandler).toBe(original);
    expect(faults.counts()).toEqual({ ses: { calls: 0, injected: { throttle: 0 }, total: 0 } });
  });

  it('wraps all three ports and reports their counts by target and kind', async () => {
    // Prepare
    const faults = createFaultInjection({ spec: 'ses:throttle:1,sqs:send-fail:1,dynamo:reset:0.5', seed: 9 });
    const client = new DynamoDBClient({ region: 'us-east-1' });
    const wrappedMailer = faults.mailer(mailer);
    const wrappedQueue = faults.queue(queue);
    // Act
    faults.dynamo(client);
    await wrappedMailer.send(email).catch(() => {});
    await wrappedQueue.send('events', { client_id: 1, event_id: 1 }).catch(() => {});
    // Assess
    expect(wrappedQueue).toBeInstanceOf(FaultyQueue);
    expect(client.config.requestHandler).toBeInstanceOf(FaultyRequestHandler);
    expect(faults.counts()).toEqual({
      ses: { calls: 1, injected: { throttle: 1 }, total: 1 },
      sqs: { calls: 1, injected: { 'send-fail': 1 }, total: 1 },
      dynamo: { calls: 0, injected: { reset: 0 }, total: 0 },
    });
  });

  it('replays the same SES faults for the same seed, however many queue sends happen in between', async () => {
    // Prepare
    const run = async (queueSendsPerMail: number) => {
      const faults = createFaultInjection({ spec: 'ses:throttle:0.3,sqs:send-fail:0.3', seed: 31337 });
      const m = faults.mailer(mailer);
      const q = faults.queue(queue);
      const outcomes: string[] = [];
      for (let i = 0; i < 30; i++) {
        for (let j = 0; j < queueSendsPerMail; j++)
          await q.send('events', { client_id: 1, event_id: j }).catch(() => {});
        outcomes.push(
          await m.send(email).then(
            () => 'sent',
            () => 'throttled',
          ),
        );
      }
      return outcomes;
    };
    // Act
    const first = await run(0);
    const replay = await run(3);
    // Assess
    expect(replay).toEqual(first);
  });
});
