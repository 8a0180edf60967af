import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Counts the DynamoDB requests a client sends, by command name (benchmarks and request-budget tests read it). */
export class RequestCounter {
  readonly byCommand = new Map<string, number>();
  total = 0;

  record(command: string): void {
    this.total += 1;
    this.byCommand.set(command, (this.byCommand.get(command) ?? 0) + 1);
  }

  reset(): void {
    this.total = 0;
    this.byCommand.clear();
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.byCommand);
  }
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
        counter.record(String(context.commandName ?? 'unknown'));
        return next(args);
      },
      { step: 'finalizeRequest', name: 'requestCounter', priority: 'low' },
    );
  }
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
}
