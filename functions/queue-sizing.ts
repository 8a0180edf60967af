import { QUEUE_FUNCTION_DEFAULTS, type QueueFunctionDefinition } from './queues.js';

/**
 * How each entry of functions/queues.ts is polled: records per invocation and invocations at once. AWS builds every
 * event source mapping from it (infra/queue-concurrency.ts adds the deploy-time overrides and checks) and the local
 * runtime paces its in-process queue by it (local/queue-functions.ts), so both read one table and one rule.
 * No CDK import here: the local runtime loads this module.
 */

/** Lambda's bounds for the maximum concurrency of an SQS event source mapping. */
export const MAPPING_CONCURRENCY = { min: 2, max: 1000 } as const;

/** SES's default maximum send rate of an account out of the sandbox, e-mails per second (context `sesMaxSendRate`). */
export const SES_DEFAULT_MAX_SEND_RATE = 14;

/**
 * Seconds one message of the sender takes at the fastest: 4 DynamoDB requests (≈ 40 ms) and SES's SendEmail
 * (≈ 100 ms) in sequence (docs/capacity.md "Bounded concurrency"). The sender's ceiling is computed with it, so only
 * answers faster than this could exceed the rate; slower ones send below it. An estimate until measured on AWS (the
 * dashboard shows execute-workflow's p10 duration).
 */
export const FASTEST_SEND_SECONDS = 0.15;

/** What the mapping of a queue function reads: records per invocation, invocations at once. */
export interface MappingSizing {
  batchSize: number;
  maxConcurrency: number;
}

/**
 * How the sender's mapping keeps SES's throttling the exception: sends in flight = rate × seconds a send takes
 * (Little's law), so batch × concurrency may be at most `sendRate` × FASTEST_SEND_SECONDS. Of the sizings within it
 * (concurrency ≥ 2, batch ≤ the entry's), the one with the most sends in flight, then the fuller batch. Below
 * 2 / FASTEST_SEND_SECONDS (13.3 e-mails/s, e.g. the sandbox's 1/s) no sizing fits: 1 × 2, and SES's throttling (the
 * message comes back after its visibility timeout) paces the rest.
 */
export function senderSizing(sendRate: number, maxBatchSize: number): MappingSizing {
  const inFlight = sendRate * FASTEST_SEND_SECONDS;
  let best: MappingSizing = { batchSize: 1, maxConcurrency: MAPPING_CONCURRENCY.min };
  let bestInFlight = 0;
  for (let batchSize = maxBatchSize; batchSize >= 1; batchSize--) {
    // The epsilon keeps 3 × 0.1 / 0.1 from flooring to 2.
    const maxConcurrency = Math.min(MAPPING_CONCURRENCY.max, Math.floor(inFlight / batchSize + 1e-9));
    if (maxConcurrency < MAPPING_CONCURRENCY.min) continue;
    if (maxConcurrency * batchSize > bestInFlight) {
      best = { batchSize, maxConcurrency };
      bestInFlight = maxConcurrency * batchSize;
    }
  }
  return best;
}

/** E-mails per second the sender's mapping can start at most: batch × concurrency / FASTEST_SEND_SECONDS. */
export const senderCeiling = (sizing: MappingSizing): number =>
  (sizing.batchSize * sizing.maxConcurrency) / FASTEST_SEND_SECONDS;

/**
 * The mapping of one entry: a sender (`sendsEmail`) gets `senderSizing` for the SES rate; any other entry its
 * `maxConcurrency` (on AWS a context value may take its place) and its batch size. Undefined when the entry names no
 * concurrency — AWS refuses such an entry at synth (infra/queue-concurrency.ts).
 */
export function mappingOf(
  definition: QueueFunctionDefinition,
  sesMaxSendRate: number,
  maxConcurrency = definition.maxConcurrency,
): MappingSizing | undefined {
  const batchSize = definition.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize;
  if (definition.sendsEmail) return senderSizing(sesMaxSendRate, batchSize);
  return maxConcurrency === undefined ? undefined : { batchSize, maxConcurrency };
}
