import type { QueueFunctionDefinition } from '../functions/queues.js';
import { MAPPING_CONCURRENCY, mappingOf } from '../functions/queue-sizing.js';
import { constructIdOf } from './node-function.js';

// The sizing rule is shared with the local runtime (functions/queue-sizing.ts); infra adds the context and the checks.
export {
  FASTEST_SEND_SECONDS,
  MAPPING_CONCURRENCY,
  type MappingSizing,
  SES_DEFAULT_MAX_SEND_RATE,
  senderCeiling,
  senderSizing,
} from '../functions/queue-sizing.js';

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
      return { ...definition, ...mappingOf(definition, settings.sesMaxSendRate) };
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
