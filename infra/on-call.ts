import { ArnFormat, Stack } from 'aws-cdk-lib';
import { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct, type IConstruct } from 'constructs';

export interface OnCallProps {
  /** Context `onCallEmail`: subscribed when given (SNS sends it a confirmation link first). */
  email: string | undefined;
}

/**
 * The stack's one on-call topic: every CloudWatch alarm of the stack sends its ALARM and OK transitions
 * here. TLS only; no SSE — alarm messages carry alarm names, metrics and thresholds, no customer data, and an
 * encrypted topic would need a customer-managed key that admits CloudWatch (docs/decisions/0071-operators-hear-about-failures.md "Operators hear about
 * failures"). Only CloudWatch alarms of this account publish; chat, pager or more addresses subscribe to it.
 */
export class OnCall extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: OnCallProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.topic = new Topic(this, 'Topic', { displayName: 'Email lifecycle: on call', enforceSSL: true });
    // The topic policy replaces SNS's default one, so CloudWatch needs its own Allow; the conditions keep it to the
    // alarms of this account and region (confused-deputy protection).
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }

  /**
   * Makes every CloudWatch alarm under `scope` send its ALARM and OK transitions to the topic; called once the
   * stack holds all its alarms, so none is missed (the CDK tests check each one).
   */
  notifyOnAlarmsIn(scope: IConstruct): void {
    const action = new SnsAction(this.topic);
    for (const alarm of alarmsIn(scope)) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
  }
}

/** Every CloudWatch alarm under `scope`. */
export const alarmsIn = (scope: IConstruct): Alarm[] =>
  scope.node.findAll().filter((node): node is Alarm => node instanceof Alarm);
