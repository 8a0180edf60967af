import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { WaveTracker } from './wave-tracker.js';

/** Counts the DynamoDB requests a client sends, by command name (benchmarks and request-budget tests read it). */
export class RequestCounter {
  readonly byCommand = new Map<string, number>();
  total = 0;
  readonly waveTracker = new WaveTracker();

  record(command: string): void {
    this.total += 1;
    this.byCommand.set(command, (this.byCommand.get(command) ?? 0) + 1);
  }

  reset(): void {
    this.total = 0;
    this.byCommand.clear();
    this.waveTracker.reset();
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.byCommand);
  }

  /** Sequential request waves since the last reset (see WaveTracker). */
  get waves(): number {
    return this.waveTracker.waves;
  }

  /**
   * Runs `fn` and reports the DynamoDB requests it sent (and their waves) on their own, even while other requests
   * share this container (the local runtime serves many at once): the scope follows the async context.
   */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; usage: RequestUsage }> {
    const scoped = new RequestCounter();
    const result = await requestScopes.run(scoped, fn);
    return { result, usage: { requests: scoped.total, waves: scoped.waves, by_command: scoped.snapshot() } };
  }
}

export interface RequestUsage {
  requests: number;
  waves: number;
  by_command: Record<string, number>;
}

const requestScopes = new AsyncLocalStorage<RequestCounter>();

/** Records one request attempt on the counter and on the caller's `measure` scope; returns the end callback. */
function beginRequest(counter: RequestCounter, command: string): () => void {
  const scoped = requestScopes.getStore();
  const counters = scoped && scoped !== counter ? [counter, scoped] : [counter];
  const ends = counters.map((c) => {
    c.record(command);
    const depth = c.waveTracker.begin();
    return () => c.waveTracker.end(depth);
  });
  return () => ends.forEach((end) => end());
}

export interface DocumentClientOptions {
  region: string;
  endpoint?: string;
  counter?: RequestCounter;
}

export function createDocumentClient(options: DocumentClientOptions): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 5,
  });
  const counter = options.counter;
  if (counter) {
    // Runs once per attempt (after retries are split out), so retried calls are counted as the requests they are.
    base.middlewareStack.add(
      (next, context) => async (args) => {
        const end = beginRequest(counter, String(context.commandName ?? 'unknown'));
        try {
          return await next(args);
        } finally {
          end();
        }
      },
      { step: 'finalizeRequest', name: 'requestCounter', priority: 'low' },
    );
  }
  return DynamoDBDocumentClient.from(base, {
    // convertClassInstanceToMap: the SDK takes a map with an own key `constructor` (a custom field name, a
    // template var) for a class instance and refuses it; every object we write is plain data.
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false, convertClassInstanceToMap: true },
  });
}
