import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsDeadLetters } from '../../shared/adapters/sqs/sqs-dead-letters.js';
import type { QueueName, RedriveOutcome } from '../../shared/platform.js';

/**
 * `admin redrive`: a queue's dead letters back to the queue. AWS: SqsDeadLetters (the DLQ read from the queue's
 * RedrivePolicy, then StartMessageMoveTask), so the queue's URL is all it needs. Locally the dead letters live in the
 * `npm start` process: its local-only route moves them (functions/http/dev-queues-redrive.ts).
 */

/** `<NAME>_QUEUE_URL`, the variable the stack gives the functions that send to the queue: `SES_STATUS_QUEUE_URL`. */
export const queueUrlVariable = (queue: QueueName): string =>
  `${queue.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_QUEUE_URL`;

/** The region in `https://sqs.<region>.amazonaws.com/<account>/<name>`; undefined for other hosts. */
export function regionOfQueueUrl(url: string): string | undefined {
  try {
    return /^sqs\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/.exec(new URL(url).hostname)?.[1];
  } catch {
    return undefined;
  }
}

export interface AwsRedrive {
  queue: QueueName;
  queueUrl: string;
  /** AWS_REGION when set; otherwise the queue URL's, then the SDK's default chain. */
  region?: string;
}

export async function redriveOnAws({ queue, queueUrl, region }: AwsRedrive): Promise<RedriveOutcome> {
  const client = new SQSClient({ region: region ?? regionOfQueueUrl(queueUrl) });
  try {
    return await new SqsDeadLetters(client, { [queue]: queueUrl }).redrive(queue);
  } finally {
    client.destroy();
  }
}

/** POST `<baseUrl>/dev/queues/<queue>/redrive` on the running `npm start`; the count it moved. */
export async function redriveLocally(baseUrl: string, queue: QueueName): Promise<RedriveOutcome> {
  const url = `${baseUrl}/dev/queues/${encodeURIComponent(queue)}/redrive`;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST' });
  } catch (error) {
    throw new Error(
      `the npm start at ${baseUrl} did not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as
    | { data?: { moved?: unknown }; message?: string }
    | undefined;
  const moved = body?.data?.moved;
  if (!response.ok || typeof moved !== 'number') {
    throw new Error(`POST ${url} answered ${response.status}${body?.message ? ` (${body.message})` : ''}`);
  }
  return { kind: 'moved', moved };
}
