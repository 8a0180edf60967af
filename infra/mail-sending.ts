import { Stack, Token, Validations } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { ConfigurationSet, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { wildcardResourceFinding } from './nag.js';
import { domainOf, NO_REPUTATION_POLICY, type MailSenders } from './stack-settings.js';

export interface MailSendingProps {
  /** Environment the clients' senders get besides the configuration set (UNSUBSCRIBE_MAILTO when given). */
  senderEnvironment: Record<string, string>;
  /** The service's own senders and the tenants' reputation policy (context; infra/stack-settings.ts). */
  mailSenders?: MailSenders;
}

/** What a function that creates and checks clients' domains does to their SES identities. */
export const IDENTITY_ACTIONS = [
  'ses:CreateEmailIdentity',
  'ses:GetEmailIdentity',
  'ses:DeleteEmailIdentity',
  'ses:PutEmailIdentityMailFromAttributes',
  'ses:TagResource',
  'ses:ListResourceTenants',
] as const;

/** Making a client's own configuration set (named as its tenant) with its event destinations. */
const CLIENT_SET_ACTIONS = ['ses:CreateConfigurationSet', 'ses:CreateConfigurationSetEventDestination'] as const;

/** Reading the clients' shared set, which every client's set copies (its options and SNS destinations). */
const SHARED_SET_READ_ACTIONS = ['ses:GetConfigurationSet', 'ses:GetConfigurationSetEventDestinations'] as const;

/** Associating a resource (identity, configuration set) with a tenant takes a grant on both. */
const ASSOCIATION_ACTIONS = ['ses:CreateTenantResourceAssociation', 'ses:DeleteTenantResourceAssociation'] as const;

/** A tenant name's longest prefix: `<prefix>client-<id>` stays within SES's 64 characters. */
const TENANT_PREFIX_LENGTH = 32;

/**
 * SES v2 sending: the configuration sets every e-mail names — clients' mail, and the service's own — (their event
 * destinations, SNS → status queue, are infra/mail-events.ts), and the three grants on them: clients' sends, the
 * service's own sends, and the management of clients' domains and tenants. The service's own sender is fenced off
 * from the clients' in IAM, beside the code's check of every From (docs/decisions, "The service's own sender apart").
 */
export class MailSending extends Construct {
  readonly configurationSet: ConfigurationSet;
  /**
   * The service's own mail (sign-in links, invitations, notices): a set of its own, so its bounces and complaints are
   * counted apart from every client's (its events reach the same status pipeline, tagged `kind: system`) and SES's
   * suppression and reputation metrics see it alone.
   */
  readonly systemConfigurationSet: ConfigurationSet;
  /**
   * Prefix of every SES tenant this deployment creates (`<prefix>client-<id>`, SES_TENANT_PREFIX): the root stack's
   * name, lower-case, so two deployments in one account never share or touch each other's tenants.
   */
  readonly tenantPrefix: string;
  /**
   * The SES-managed reputation policy put on every client's tenant, so SES pauses that client and not the account:
   * context `sesTenantReputationPolicyArn`, else SES's `standard` policy of the deployment's region; undefined with
   * `none`.
   */
  readonly tenantReputationPolicyArn: string | undefined;
  private readonly senderEnvironment: Record<string, string>;
  private readonly senders: MailSenders;

  constructor(scope: Construct, id: string, props: MailSendingProps) {
    super(scope, id);
    this.senderEnvironment = props.senderEnvironment;
    this.senders = props.mailSenders ?? {
      systemFromAddress: undefined,
      onboardingFromAddress: undefined,
      tenantReputationPolicyArn: undefined,
    };
    this.tenantPrefix = tenantPrefixOf(Stack.of(this));
    this.tenantReputationPolicyArn = reputationPolicyOf(Stack.of(this), this.senders.tenantReputationPolicyArn);
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
   * Clients' mail (`sendsEmail`): ses:SendEmail from any verified identity through a client's own set
   * (`<prefix>client-*`) or the clients' shared set, and never as the service: denied the system set, the system
   * identities, and any From at the system domain (whichever identity SES authorizes the From against).
   * ses:GetTenant and GetReputationEntity on this deployment's tenants (a paused tenant is rechecked before sending
   * again).
   */
  grantClientSend(fn: LambdaFunction, who: string): void {
    const system = this.requireSystemSender(who);
    this.requireOnboardingSender(who);
    const identities = this.arnOf('identity', '*');
    const tenants = this.tenantsArn;
    const clientSets = this.clientConfigurationSetsArn;
    // The shared set stays allowed for a client whose sending state names it: one with no tenant yet, or one whose
    // tenant was made before sets were per client, until `admin ensure-sending` gives it its own.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [identities, this.configurationSetArn, clientSets],
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['ses:SendEmail'],
        resources: [this.systemConfigurationSetArn, ...this.identityArnsOf(system)],
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['ses:SendEmail'],
        resources: [identities],
        conditions: {
          StringLike: {
            'ses:FromAddress': [system, `*@${domainOf(system)}`, `*@*.${domainOf(system)}`],
          },
        },
      }),
    );
    // A paused tenant's status and SES's cause for it (GetTenant, then GetReputationEntity when disabled).
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ses:GetTenant', 'ses:GetReputationEntity'], resources: [tenants] }),
    );
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, identities),
      reason:
        'A client sends From its own verified domains (checked by the service before every send) or from the ' +
        'onboarding sender, none known at deploy time; in the SES sandbox SendEmail is also authorized against ' +
        'the recipient’s identity. Only ses:SendEmail, and the service’s own identities and set are denied.',
    });
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, tenants),
      reason:
        'One SES tenant per client, created at run time (<prefix>client-<id>; SES appends a tenant id to its ARN): ' +
        'only reads of their status (ses:GetTenant, ses:GetReputationEntity), and only this deployment’s tenants.',
    });
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, clientSets),
      reason:
        'One SES configuration set per client, created at run time (<prefix>client-<id>): only ses:SendEmail ' +
        'through this deployment’s clients’ sets, each associated with its client’s tenant alone.',
    });
    fn.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.configurationSetName);
    fn.addEnvironment('SES_TENANT_PREFIX', this.tenantPrefix);
    for (const [name, value] of Object.entries(this.senderEnvironment)) fn.addEnvironment(name, value);
  }

  /**
   * The service's own mail (`sendsSystemMail`): ses:SendEmail From the system address only (both its identities, as
   * SES authorizes the address's identity when one is verified, else the domain's), through the system set.
   */
  grantSystemSend(fn: LambdaFunction, who: string): void {
    const system = this.requireSystemSender(who);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [...this.identityArnsOf(system), this.systemConfigurationSetArn],
        conditions: { StringEquals: { 'ses:FromAddress': system } },
      }),
    );
    fn.addEnvironment('SES_SYSTEM_CONFIGURATION_SET', this.systemConfigurationSet.configurationSetName);
  }

  /**
   * Clients' sending domains and tenants (`managesSenders`: the domain routes and poller): create, check and delete
   * domain identities, create this deployment's tenants and each client's own configuration set (`<prefix>client-*`,
   * copied from the clients' shared set, which it may read), associate identities and those sets with the tenants,
   * read a tenant's reputation and apply the reputation policy. Never on the service's own identities or set.
   */
  grantManageSenders(fn: LambdaFunction, who: string): void {
    this.requireSystemSender(who);
    this.requireOnboardingSender(who);
    const identities = this.arnOf('identity', '*');
    const tenants = this.tenantsArn;
    const clientSets = this.clientConfigurationSetsArn;
    fn.addToRolePolicy(new PolicyStatement({ actions: [...IDENTITY_ACTIONS], resources: [identities] }));
    fn.addToRolePolicy(
      new PolicyStatement({
        // TagResource: CreateTenant with tags is authorized as ses:TagResource too.
        actions: ['ses:CreateTenant', 'ses:GetTenant', 'ses:GetReputationEntity', 'ses:TagResource'],
        resources: [tenants],
      }),
    );
    fn.addToRolePolicy(new PolicyStatement({ actions: [...CLIENT_SET_ACTIONS], resources: [clientSets] }));
    fn.addToRolePolicy(
      new PolicyStatement({ actions: [...SHARED_SET_READ_ACTIONS], resources: [this.configurationSetArn] }),
    );
    // A new tenant holds its client's own set only; the shared set stays on the tenants made before, never removed.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [...ASSOCIATION_ACTIONS],
        resources: [tenants, identities, clientSets],
      }),
    );
    const policy = this.tenantReputationPolicyArn;
    if (policy !== undefined) {
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['ses:UpdateReputationEntityPolicy'], resources: [tenants, policy] }),
      );
      fn.addEnvironment('SES_TENANT_REPUTATION_POLICY_ARN', policy);
    }
    const own = this.serviceIdentityArns();
    if (own.length > 0) {
      fn.addToRolePolicy(new PolicyStatement({ effect: Effect.DENY, actions: [...IDENTITY_ACTIONS], resources: own }));
    }
    // A client's tenant may hold the onboarding identity (the sandbox sends through it), never the system's.
    const { systemFromAddress } = this.senders;
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: [...ASSOCIATION_ACTIONS],
        resources: [
          this.systemConfigurationSetArn,
          ...(systemFromAddress === undefined ? [] : this.identityArnsOf(systemFromAddress)),
        ],
      }),
    );
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, identities),
      reason:
        'Clients’ sending domains become SES identities at run time, after the client proved it controls the ' +
        'domain; their names are not known at deploy time. The service’s own identities are denied.',
    });
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, tenants),
      reason:
        'One SES tenant per client, created at run time (<prefix>client-<id>; SES appends a tenant id to its ARN): ' +
        'only this deployment’s tenants.',
    });
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, clientSets),
      reason:
        'One SES configuration set per client, created at run time and named as its tenant (<prefix>client-<id>): ' +
        'only this deployment’s clients’ sets, never the shared or the system set.',
    });
    fn.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.configurationSetName);
    fn.addEnvironment('SES_TENANT_PREFIX', this.tenantPrefix);
  }

  /** `arn:…:ses:<region>:<account>:configuration-set/<name>`: what SES names as aws:SourceArn when it publishes events. */
  get configurationSetArn(): string {
    return this.arnOf('configuration-set', this.configurationSet.configurationSetName);
  }

  get systemConfigurationSetArn(): string {
    return this.arnOf('configuration-set', this.systemConfigurationSet.configurationSetName);
  }

  /** Both sets' ARNs: clients' mail, and the service's own. */
  get configurationSetArns(): string[] {
    return [this.configurationSetArn, this.systemConfigurationSetArn];
  }

  /** Each client's own set, made at run time and named as its tenant: `configuration-set/<prefix>client-*`. */
  get clientConfigurationSetsArn(): string {
    return this.arnOf('configuration-set', `${this.tenantPrefix}client-*`);
  }

  /** This deployment's tenants: `tenant/<prefix>client-*` (a tenant's ARN is `tenant/<name>/<tenant id>`). */
  get tenantsArn(): string {
    return this.arnOf('tenant', `${this.tenantPrefix}client-*`);
  }

  private requireSystemSender(who: string): string {
    const system = this.senders.systemFromAddress;
    if (system === undefined) {
      throw new Error(
        `${who} sends e-mail, and the service's own sender is not set: give context "systemFromEmail" (an address ` +
          `of an SES identity you verified, e.g. -c systemFromEmail=accounts@mail.example.org; docs/deploy.md). ` +
          `Only the service's own mail may send From it, and clients' mail never.`,
      );
    }
    return system;
  }

  /** Every client's tenant holds the onboarding domain's identity: without it no tenant could be set up. */
  private requireOnboardingSender(who: string): void {
    if (this.senders.onboardingFromAddress === undefined) {
      throw new Error(
        `${who} sends clients' e-mail or sets up their tenants, and the onboarding sender is not set: give context ` +
          `"onboardingFromAddress" (an address at a second domain you verified in SES, not systemFromEmail's, e.g. ` +
          `-c onboardingFromAddress=onboarding@onboarding.example.net; docs/deploy.md)`,
      );
    }
  }

  /** The identities SES may authorize a send From `address` against: the address's own, and its domain's. */
  private identityArnsOf(address: string): string[] {
    return [this.arnOf('identity', domainOf(address)), this.arnOf('identity', address)];
  }

  /**
   * The service's own identities, which no client's domain may be created as, nor deleted, changed or read through
   * these functions: each sender's address, its domain, and the domain's subdomains.
   */
  private serviceIdentityArns(): string[] {
    const { systemFromAddress, onboardingFromAddress } = this.senders;
    return [systemFromAddress, onboardingFromAddress].flatMap((address) =>
      address === undefined ? [] : [...this.identityArnsOf(address), this.arnOf('identity', `*.${domainOf(address)}`)],
    );
  }

  private arnOf(resource: string, resourceName: string): string {
    return Stack.of(this).formatArn({ service: 'ses', resource, resourceName });
  }
}

/**
 * The tenants' reputation policy: the one given, none for NO_REPUTATION_POLICY, else SES's managed `standard` policy
 * of the stack's region (`arn:<partition>:ses:<region>:aws:reputation-policy/standard`, owned by `aws`, not the
 * account), which pauses a tenant on SES's high-severity findings.
 */
function reputationPolicyOf(stack: Stack, given: string | undefined): string | undefined {
  if (given === NO_REPUTATION_POLICY) return undefined;
  return (
    given ??
    stack.formatArn({ service: 'ses', account: 'aws', resource: 'reputation-policy', resourceName: 'standard' })
  );
}

/** `EmailLifecycle` → `emaillifecycle-`: the deployment's stack name as SES_TENANT_PREFIX allows it. */
export function tenantPrefixOf(stack: Stack): string {
  const root = rootOf(stack);
  if (Token.isUnresolved(root.stackName)) throw new Error('the tenant prefix needs a stack name known at synth time');
  const name = root.stackName
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, TENANT_PREFIX_LENGTH - 1);
  return `${name}-`;
}

function rootOf(stack: Stack): Stack {
  let root = stack;
  while (root.nestedStackParent) root = root.nestedStackParent;
  return root;
}
