import { Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { AnyPrincipal, Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ConfigurationSetEventDestination, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { MailSending } from './mail-sending.js';
import type { WorkQueue } from './work-queue.js';

export interface MailEventsProps {
  /** The configuration set every e-mail is sent with. */
  mail: MailSending;
  /** The queue of the functions/queues.ts entry with `sesEvents` (ses-status). */
  target: WorkQueue;
  removalPolicy: RemovalPolicy;
}

/** Every event type SES publishes; the consumer records the ones it knows and acknowledges the others. */
export const SES_EVENT_TYPES: readonly EmailSendingEvent[] = Object.values(EmailSendingEvent);

/**
 * The status path of DESIGN.md §8 on AWS: the configuration set publishes every event type to an SNS topic, which
 * delivers each notification in its SNS envelope (the consumer dedupes on its MessageId) to the status queue. The
 * topic is TLS only and encrypted with its own key; only SES, for this account and its configuration sets, may
 * publish: the stack's two sets, and each client's own set (`<prefix>client-*`, made at run time with a copy of the
 * clients' set's destination: shared/adapters/ses/ses-identities.ts).
 */
export class MailEvents extends Construct {
  readonly key: Key;
  readonly topic: Topic;
  readonly destination: ConfigurationSetEventDestination;
  /** The service's own mail's set publishes to the same topic: one status pipeline, which counts it apart. */
  readonly systemDestination: ConfigurationSetEventDestination;

  constructor(scope: Construct, id: string, props: MailEventsProps) {
    super(scope, id);
    const sesOnBehalfOfThisSet = {
      StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
      ArnLike: { 'aws:SourceArn': [...props.mail.configurationSetArns, props.mail.clientConfigurationSetsArn] },
    };

    this.key = new Key(this, 'Key', {
      description: 'SES status notifications: encrypts the SNS topic SES publishes them to',
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    // SES publishes with its service principal, so it must be able to use the topic's key (an AWS managed key's
    // policy could not say so). SNS→SQS needs nothing here: the queue uses SQS-managed SSE (SSE-SQS).
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'SesPublishesStatusEvents',
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        resources: ['*'],
        conditions: sesOnBehalfOfThisSet,
      }),
    );

    this.topic = new Topic(this, 'Topic', {
      displayName: 'SES status notifications',
      masterKey: this.key,
      enforceSSL: true,
    });
    // The only Allow (added by the event destination below) is SES for this set; this keeps identities of the
    // account that hold sns:Publish out too: nothing but an AWS service principal publishes here.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'OnlySesPublishes',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { Bool: { 'aws:PrincipalIsAWSService': 'false' } },
      }),
    );

    // The clients' own sets are made at run time: one Allow covers them by name, as the destinations below allow the
    // stack's sets each by its exact ARN.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'SesPublishesClientSetsEvents',
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
          ArnLike: { 'aws:SourceArn': props.mail.clientConfigurationSetsArn },
        },
      }),
    );

    // Adds the topic policy's Allow: sns:Publish by ses.amazonaws.com with aws:SourceAccount and aws:SourceArn.
    this.destination = new ConfigurationSetEventDestination(this, 'Destination', {
      configurationSet: props.mail.configurationSet,
      destination: EventDestination.snsTopic(this.topic),
      events: [...SES_EVENT_TYPES],
    });
    this.systemDestination = new ConfigurationSetEventDestination(this, 'SystemDestination', {
      configurationSet: props.mail.systemConfigurationSet,
      destination: EventDestination.snsTopic(this.topic),
      events: [...SES_EVENT_TYPES],
    });

    // Raw delivery off: the body is the SNS envelope, whose MessageId is the consumer's dedupe key. What SNS cannot
    // deliver lands in the queue's DLQ, next to the notifications the consumer gave up on (same redrive path).
    this.topic.addSubscription(
      new SqsSubscription(props.target.queue, {
        rawMessageDelivery: false,
        deadLetterQueue: props.target.deadLetters.queue,
      }),
    );
  }
}
