import { afterEach, describe, expect, it } from 'vitest';
import { senderSizing } from '../../../functions/queue-sizing.js';
import { QUEUE_FUNCTION_DEFAULTS, queueFunctions } from '../../../functions/queues.js';
import { createLocalEngine, type LocalEngine } from '../../../local/engine/local-engine.js';

let engine: LocalEngine | undefined;
const rate = process.env['SES_MAX_SEND_RATE'];
afterEach(async () => {
  await engine?.stop();
  if (rate === undefined) delete process.env['SES_MAX_SEND_RATE'];
  else process.env['SES_MAX_SEND_RATE'] = rate;
});

describe('the local engine', () => {
  it("consumes every queue of functions/queues.ts with its AWS mapping's batch size and concurrency", () => {
    // Prepare: the runtime's SES rate (local/runtime.ts sets 50)
    process.env['SES_MAX_SEND_RATE'] = '50';

    // Act
    engine = createLocalEngine({ sesUrl: 'http://127.0.0.1:9', region: 'us-east-1' });

    // Assess
    for (const fn of queueFunctions) {
      const consumer = engine.queue.consumerOf(fn.queue);
      const sizing = fn.sendsEmail
        ? senderSizing(50, fn.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize)
        : { batchSize: fn.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize, maxConcurrency: fn.maxConcurrency };
      expect(consumer, fn.queue).toMatchObject(sizing);
      expect(consumer!.maxReceiveCount, fn.queue).toBe(fn.maxReceiveCount ?? QUEUE_FUNCTION_DEFAULTS.maxReceiveCount);
    }
    expect(engine.queue.consumerOf('workflow')).toMatchObject({ batchSize: 1, maxConcurrency: 7 });
  });
});
