import { GetQueueAttributesCommand, StartMessageMoveTaskCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeadLetters, QueueName, RedriveOutcome } from '../../platform.js';
import type { QueueUrls } from './sqs-queue.js';

/**
 * The `DeadLetters` port on SQS. The queue's own attributes name its DLQ (`RedrivePolicy.deadLetterTargetArn`), so
 * only the queue's URL is needed; the move is SQS's StartMessageMoveTask from that DLQ to the queue. The destination
 * is named rather than left to "each message's source queue": the SES status DLQ also holds what the SNS subscription
 * could not deliver, which came from no queue. Two requests; the task runs on in the background (one per DLQ at a time).
 */
export class SqsDeadLetters implements DeadLetters {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrls: QueueUrls,
  ) {}

  async redrive(queue: QueueName): Promise<RedriveOutcome> {
    const url = this.queueUrls[queue];
    if (!url) throw new Error(`SqsDeadLetters: no URL for the ${queue} queue`);
    const { Attributes: attributes = {} } = await this.client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn', 'RedrivePolicy'] }),
    );
    const destinationArn = attributes.QueueArn;
    const sourceArn = deadLetterArnOf(attributes.RedrivePolicy);
    if (!destinationArn) throw new Error(`SqsDeadLetters: SQS did not answer the ARN of ${url}`);
    if (!sourceArn) throw new Error(`SqsDeadLetters: ${url} has no dead-letter queue (no RedrivePolicy)`);
    const { TaskHandle: taskHandle } = await this.client.send(
      new StartMessageMoveTaskCommand({ SourceArn: sourceArn, DestinationArn: destinationArn }),
    );
    if (!taskHandle) throw new Error(`SqsDeadLetters: SQS started no move task from ${sourceArn}`);
    return { kind: 'started', taskHandle, sourceArn, destinationArn };
  }
}

/** `{"deadLetterTargetArn":"arn:…","maxReceiveCount":"5"}` → the ARN; undefined when absent or unreadable. */
function deadLetterArnOf(policy: string | undefined): string | undefined {
  if (!policy) return undefined;
  try {
    const arn: unknown = (JSON.parse(policy) as { deadLetterTargetArn?: unknown }).deadLetterTargetArn;
    return typeof arn === 'string' && arn !== '' ? arn : undefined;
  } catch {
    return undefined;
  }
}
