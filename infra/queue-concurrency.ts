import { QUEUE_FUNCTION_DEFAULTS, type QueueFunctionDefinition } from '../functions/queues.js';
import { constructIdOf } from './node-function.js';

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

/** The deploy-time settings the sizing reads (infra/stack-settings.ts). */
export interface QueueConcurrencySettings {
  /** Context `sesMaxSendRate`: e-mails per second the SES account accepts (SES console, "Sending quota"). */
  sesMaxSendRate: number;
  /** Context `<handler>MaxConcurrency`, by handler: only the keys given. */
  maxConcurrency: Record<string, number>;
}

/** `process-events` → `processEventsMaxConcurrency`: the context key that overrides an entry's maxConcurrency. */
export function maxConcurrencyContextKey(handler: string): string {
  const id = constructIdOf(handler);
  return `${id.charAt(0).toLowerCase()}${id.slice(1)}MaxConcurrency`;
}

/**
 * The entries of functions/queues.ts as built on AWS, each with a bounded mapping: a sender (`sendsEmail`) gets the
 * batch size and concurrency of `senderSizing` for the SES rate; any other entry its context `<handler>MaxConcurrency`,
 * else its own `maxConcurrency`. An entry left unbounded, a sender given a concurrency of its own, or a value outside
 * Lambda's 2–1000 fails the synth.
 */
export function sizeQueueFunctions(
  table: readonly QueueFunctionDefinition[],
  settings: QueueConcurrencySettings,
): QueueFunctionDefinition[] {
  return table.map((definition) => {
    const contextKey = maxConcurrencyContextKey(definition.handler);
    const fromContext = settings.maxConcurrency[definition.handler];
    if (definition.sendsEmail) {
      if (fromContext !== undefined || definition.maxConcurrency !== undefined) {
        throw new Error(
          `${definition.handler} sends e-mail: its concurrency follows the SES send rate (context "sesMaxSendRate"), ` +
            `not "${contextKey}" or maxConcurrency`,
        );
      }
      return {
        ...definition,
        ...senderSizing(settings.sesMaxSendRate, definition.batchSize ?? QUEUE_FUNCTION_DEFAULTS.batchSize),
      };
    }
    const maxConcurrency = fromContext ?? definition.maxConcurrency;
    if (maxConcurrency === undefined) {
      throw new Error(`${definition.handler} has no maxConcurrency (functions/queues.ts or context "${contextKey}")`);
    }
    if (
      !Number.isInteger(maxConcurrency) ||
      maxConcurrency < MAPPING_CONCURRENCY.min ||
      maxConcurrency > MAPPING_CONCURRENCY.max
    ) {
      throw new Error(
        `${definition.handler}'s maxConcurrency (functions/queues.ts or context "${contextKey}") must be an integer ` +
          `from 2 to 1000, got ${maxConcurrency}`,
      );
    }
    return { ...definition, maxConcurrency };
  });
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
