import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beginRequest, type RequestCounter } from './request-counter.js';

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
