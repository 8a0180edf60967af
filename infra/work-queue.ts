import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueName } from '../shared/platform.js';
import { DeadLetterQueue } from './dead-letter-queue.js';

export interface WorkQueueProps {
  name: QueueName;
  /** Seconds a received message stays hidden: VISIBILITY_TIMEOUT_FACTOR × the consuming function's timeout. */
  visibilityTimeoutSeconds: number;
  /** Deliveries before a message moves to the DLQ. */
  maxReceiveCount: number;
  removalPolicy: RemovalPolicy;
}

/** One queue of the engine (events, workflow): SQS-managed encryption, TLS only, and its alarmed DLQ. */
export class WorkQueue extends Construct {
  readonly name: QueueName;
  readonly queue: Queue;
  readonly deadLetters: DeadLetterQueue;
  readonly visibilityTimeoutSeconds: number;
  readonly maxReceiveCount: number;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    this.name = props.name;
    this.visibilityTimeoutSeconds = props.visibilityTimeoutSeconds;
    this.maxReceiveCount = props.maxReceiveCount;
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', {
      alarmDescription: `Messages of the ${props.name} queue failed ${props.maxReceiveCount} times (DLQ)`,
      removalPolicy: props.removalPolicy,
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetters.queue, maxReceiveCount: props.maxReceiveCount },
      removalPolicy: props.removalPolicy,
    });
  }

  /**
   * The longest a message spends in this queue on its way to the DLQ: every delivery but the last returns it after
   * the visibility timeout, and the last holds it that long again before it moves (the queue-age alarm's base).
   */
  get retryWindowSeconds(): number {
    return this.maxReceiveCount * this.visibilityTimeoutSeconds;
  }

  /**
   * sqs:SendMessage on this queue and nothing else (SendMessageBatch is authorized by the same action).
   * `queue.grantSendMessages` would add GetQueueAttributes and GetQueueUrl, which the SQS adapter never calls.
   */
  grantSend(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
  }
}

/** Env name carrying a queue's URL to the functions that send to it, e.g. `WORKFLOW_QUEUE_URL`. */
export const queueUrlVariable = (queue: QueueName): string => `${envNameOf(queue)}_QUEUE_URL`;

/** Env name carrying a queue's ARN to the functions that schedule messages to it, e.g. `WORKFLOW_QUEUE_ARN`. */
export const queueArnVariable = (queue: QueueName): string => `${envNameOf(queue)}_QUEUE_ARN`;

const envNameOf = (queue: string): string => queue.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
