import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { ComparisonOperator, TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface DeadLetterQueueProps {
  /** What ends up here, for the alarm's description: "Messages of the events queue failed 5 times". */
  alarmDescription: string;
  removalPolicy: RemovalPolicy;
}

/**
 * A queue for messages that could not be delivered or processed (SQS-managed encryption, TLS only, kept 14 days, the
 * SQS maximum) with an alarm as soon as one message sits in it: every message here is work that did not happen.
 */
export class DeadLetterQueue extends Construct {
  readonly queue: Queue;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    this.alarm = this.queue.metricApproximateNumberOfMessagesVisible().createAlarm(this, 'Alarm', {
      alarmDescription: props.alarmDescription,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
