import { Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { ConfigurationSet, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { wildcardResourceFinding } from './nag.js';

export interface MailSendingProps {
  /** Environment the senders get besides the configuration set (DEFAULT_FROM_ADDRESS, UNSUBSCRIBE_MAILTO when given). */
  senderEnvironment: Record<string, string>;
}

/**
 * SES v2 sending: the configuration sets every e-mail names — clients' mail, and the service's own — (their event
 * destinations, SNS → status queue, are infra/mail-events.ts), and the grant that lets a function send through them.
 */
export class MailSending extends Construct {
  readonly configurationSet: ConfigurationSet;
  /**
   * The service's own mail (sign-in links, invitations, notices): a set of its own, so its bounces and complaints are
   * counted apart from every client's (its events reach the same status pipeline, tagged `kind: system`) and SES's
   * suppression and reputation metrics see it alone.
   */
  readonly systemConfigurationSet: ConfigurationSet;
  private readonly senderEnvironment: Record<string, string>;

  constructor(scope: Construct, id: string, props: MailSendingProps) {
    super(scope, id);
    this.senderEnvironment = props.senderEnvironment;
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      // Addresses that bounced hard or complained are not mailed again (SES's suppression list).
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.systemConfigurationSet = new ConfigurationSet(this, 'SystemConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
  }

  /**
   * ses:SendEmail through this configuration set, from any verified identity (each client has its own From
   * address), and the names the mailer and the sender settings read.
   */
  grantSend(fn: LambdaFunction): void {
    const identities = this.arnOf('identity', '*');
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [identities, ...this.configurationSetArns],
      }),
    );
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, identities),
      reason:
        'The From address is each client’s own verified identity (settings email_from_address, else ' +
        'DEFAULT_FROM_ADDRESS), unknown at deploy time; in the SES sandbox SendEmail is also authorized against ' +
        'the recipient’s identity. Only ses:SendEmail, and only with these configuration sets.',
    });
    fn.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.configurationSetName);
    fn.addEnvironment('SES_SYSTEM_CONFIGURATION_SET', this.systemConfigurationSet.configurationSetName);
    for (const [name, value] of Object.entries(this.senderEnvironment)) fn.addEnvironment(name, value);
  }

  /** `arn:…:ses:<region>:<account>:configuration-set/<name>`: what SES names as aws:SourceArn when it publishes events. */
  get configurationSetArn(): string {
    return this.arnOf('configuration-set', this.configurationSet.configurationSetName);
  }

  /** Both sets' ARNs: clients' mail, and the service's own. */
  get configurationSetArns(): string[] {
    return [
      this.configurationSetArn,
      this.arnOf('configuration-set', this.systemConfigurationSet.configurationSetName),
    ];
  }

  private arnOf(resource: string, resourceName: string): string {
    return Stack.of(this).formatArn({ service: 'ses', resource, resourceName });
  }
}
