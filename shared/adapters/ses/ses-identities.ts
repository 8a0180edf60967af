import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  CreateEmailIdentityCommand,
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  DeleteEmailIdentityCommand,
  DeleteTenantResourceAssociationCommand,
  GetConfigurationSetCommand,
  GetConfigurationSetEventDestinationsCommand,
  GetEmailIdentityCommand,
  GetReputationEntityCommand,
  GetTenantCommand,
  paginateListResourceTenants,
  PutEmailIdentityMailFromAttributesCommand,
  UpdateReputationEntityPolicyCommand,
  type CreateConfigurationSetRequest,
  type EventDestinationDefinition,
  type SESv2Client,
  type StatusRecord,
} from '@aws-sdk/client-sesv2';
import { build, parse } from '@aws-sdk/util-arn-parser';
import type {
  ClientSending,
  DomainIdentityStatus,
  SenderIdentities,
  TenantStatus,
} from '../../domain/domains/sender-identities.js';
import { refusedForGood, unless } from './ses-identity-errors.js';

export interface SesSenderIdentitiesOptions {
  /** Prefix of every tenant name this deployment makes (`<prefix>client-<id>`), so several can share an account. */
  tenantPrefix: string;
  /**
   * The clients' shared configuration set, made by the stack: each client's own set copies its options and SNS event
   * destinations, and a new identity takes it as its default (every send names the client's set, so it is not used).
   */
  configurationSet: string;
  /** The onboarding sender's domain identity (verified by the operator): a client in the sandbox sends through it. */
  onboardingIdentity: string | undefined;
  /** An SES-managed reputation policy (`arn:aws:ses:<region>:aws:reputation-policy/standard`) put on each tenant. */
  reputationPolicyArn: string | undefined;
}

/** Where this account's SES resources live: learned from a tenant's ARN, the one SES answer that carries it. */
interface ArnScope {
  partition: string;
  region: string;
  accountId: string;
}

/** What a client's own configuration set copies from the clients' shared one. */
interface SetTemplate {
  options: Omit<CreateConfigurationSetRequest, 'ConfigurationSetName'>;
  destinations: { name: string; definition: EventDestinationDefinition }[];
}

/**
 * The client's sending in SES v2: one tenant per client (its own reputation and TENANT-scoped suppression list) and
 * one configuration set per client, `<prefix>client-<id>` like the tenant, associated with the tenant together with
 * the onboarding identity and the client's domain identities, so a send naming the tenant may use exactly those.
 * The client's set is made like the clients' shared set (its reputation, sending and suppression options, its SNS
 * event destinations: the same event types to the same topic), read once per container from SES, so the stack stays
 * the one place that says what a set publishes. Every call is idempotent (see ses-identity-errors.ts), and the SDK's
 * default retries apply: unlike SendEmail, repeating one of these does nothing twice.
 *
 * Resource ARNs need the account id, which no configuration carries: it is read from the first tenant ARN SES
 * answers (CreateTenant, GetTenant) and kept for the container's life.
 */
export class SesSenderIdentities implements SenderIdentities {
  private scope: ArnScope | undefined;
  private template: Promise<SetTemplate> | undefined;

  constructor(
    private readonly ses: SESv2Client,
    private readonly options: SesSenderIdentitiesOptions,
  ) {}

  tenantNameOf(clientId: number): string {
    return `${this.options.tenantPrefix}client-${clientId}`;
  }

  async ensureClientSending(clientId: number): Promise<ClientSending> {
    const tenant = this.tenantNameOf(clientId);
    // The set is named as the tenant: one name per client says which of SES's resources are its own.
    const configurationSet = tenant;
    const [tenantArn] = await Promise.all([this.ensureTenant(tenant), this.ensureConfigurationSet(configurationSet)]);
    const scope = this.learnScope(tenantArn);
    const resources = [this.arn(scope, `configuration-set/${configurationSet}`)];
    if (this.options.onboardingIdentity) resources.push(this.arn(scope, `identity/${this.options.onboardingIdentity}`));
    const policy = this.options.reputationPolicyArn;
    await Promise.all([
      ...resources.map((resource) => this.associate(tenant, resource)),
      ...(policy
        ? [
            this.ses.send(
              new UpdateReputationEntityPolicyCommand({
                ReputationEntityType: 'RESOURCE',
                ReputationEntityReference: tenantArn,
                ReputationEntityPolicy: policy,
              }),
            ),
          ]
        : []),
    ]);
    return { tenant, configurationSet };
  }

  private async ensureTenant(tenant: string): Promise<string> {
    return unless(
      'exists',
      async () => {
        const out = await this.ses.send(
          new CreateTenantCommand({
            TenantName: tenant,
            // The client's bounces and complaints suppress addresses for the client only, never for another.
            SuppressionAttributes: { SuppressionScope: 'TENANT', SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
          }),
        );
        return out.TenantArn ?? (await this.tenantArnOf(tenant));
      },
      () => this.tenantArnOf(tenant),
    );
  }

  /**
   * The client's set and its event destinations, each made unless it exists: a run that died between the two
   * leaves a set the next run completes.
   */
  private async ensureConfigurationSet(name: string): Promise<void> {
    const template = await this.sharedSetTemplate();
    await unless(
      'exists',
      async () => {
        await this.ses.send(new CreateConfigurationSetCommand({ ConfigurationSetName: name, ...template.options }));
      },
      () => undefined,
    );
    await Promise.all(
      template.destinations.map((destination) =>
        unless(
          'exists',
          async () => {
            await this.ses.send(
              new CreateConfigurationSetEventDestinationCommand({
                ConfigurationSetName: name,
                EventDestinationName: destination.name,
                EventDestination: destination.definition,
              }),
            );
          },
          () => undefined,
        ),
      ),
    );
  }

  /** The shared set's options and SNS destinations, read once per container (a failed read is tried again). */
  private sharedSetTemplate(): Promise<SetTemplate> {
    this.template ??= this.readSharedSet().catch((error: unknown) => {
      this.template = undefined;
      throw error;
    });
    return this.template;
  }

  private async readSharedSet(): Promise<SetTemplate> {
    const name = this.options.configurationSet;
    const [set, destinations] = await Promise.all([
      this.ses.send(new GetConfigurationSetCommand({ ConfigurationSetName: name })),
      this.ses.send(new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: name })),
    ]);
    const options: SetTemplate['options'] = {
      ...(set.ReputationOptions?.ReputationMetricsEnabled !== undefined
        ? { ReputationOptions: { ReputationMetricsEnabled: set.ReputationOptions.ReputationMetricsEnabled } }
        : {}),
      ...(set.SendingOptions ? { SendingOptions: set.SendingOptions } : {}),
      ...(set.SuppressionOptions ? { SuppressionOptions: set.SuppressionOptions } : {}),
    };
    // SNS destinations only: SES publishes to the topic as itself (the topic's policy admits the clients' sets), where
    // another kind would need a role passed or a grant this function does not hold.
    const copied = (destinations.EventDestinations ?? []).flatMap((destination) =>
      destination.SnsDestination && destination.Name
        ? [
            {
              name: destination.Name,
              definition: {
                Enabled: destination.Enabled ?? true,
                MatchingEventTypes: destination.MatchingEventTypes,
                SnsDestination: destination.SnsDestination,
              },
            },
          ]
        : [],
    );
    return { options, destinations: copied };
  }

  async createDomainIdentity(
    domain: string,
    options: { tenant: string; mailFromDomain: string },
  ): Promise<{ dkimTokens: string[] }> {
    const [created, scope] = await Promise.all([
      unless(
        'exists',
        async () => {
          const out = await refusedForGood(domain, () =>
            this.ses.send(
              new CreateEmailIdentityCommand({
                EmailIdentity: domain,
                DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
                ConfigurationSetName: this.options.configurationSet,
                Tags: [{ Key: 'tenant', Value: options.tenant }],
              }),
            ),
          );
          return out.DkimAttributes?.Tokens;
        },
        () => undefined,
      ),
      this.scopeVia(options.tenant),
    ]);
    const identityArn = this.arn(scope, `identity/${domain}`);
    const [tokens] = await Promise.all([
      // An identity made by an earlier run (or left by a client that deleted the name): its tokens are SES's own.
      created ??
        this.ses
          .send(new GetEmailIdentityCommand({ EmailIdentity: domain }))
          .then((out) => out.DkimAttributes?.Tokens ?? []),
      refusedForGood(options.mailFromDomain, () =>
        this.ses.send(
          new PutEmailIdentityMailFromAttributesCommand({
            EmailIdentity: domain,
            MailFromDomain: options.mailFromDomain,
            // Until the MX is published SES sends with its own MAIL FROM: mail still goes out, SPF does not align.
            BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
          }),
        ),
      ),
      this.moveToTenant(identityArn, options.tenant),
    ]);
    return { dkimTokens: tokens };
  }

  async getDomainIdentity(domain: string): Promise<DomainIdentityStatus | undefined> {
    return unless(
      'absent',
      async () => {
        const out = await this.ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
        return {
          verifiedForSending: out.VerifiedForSendingStatus ?? false,
          dkimStatus: out.DkimAttributes?.Status ?? 'NOT_STARTED',
          dkimTokens: out.DkimAttributes?.Tokens ?? [],
          mailFromDomain: out.MailFromAttributes?.MailFromDomain,
          mailFromStatus: out.MailFromAttributes?.MailFromDomainStatus,
        };
      },
      () => undefined,
    );
  }

  async deleteDomainIdentity(domain: string): Promise<void> {
    await unless(
      'absent',
      async () => {
        await this.ses.send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
      },
      () => undefined,
    );
  }

  async tenantStatus(tenant: string): Promise<TenantStatus> {
    const out = await this.ses.send(new GetTenantCommand({ TenantName: tenant }));
    const status = out.Tenant?.SendingStatus ?? 'ENABLED';
    if (out.Tenant?.TenantArn) this.learnScope(out.Tenant.TenantArn);
    if (status !== 'DISABLED' || !out.Tenant?.TenantArn) return { status };
    // Only a paused tenant costs a second request: its reputation entity says why (SES's finding or an operator's).
    const entity = await this.ses.send(
      new GetReputationEntityCommand({
        ReputationEntityType: 'RESOURCE',
        ReputationEntityReference: out.Tenant.TenantArn,
      }),
    );
    const cause =
      causeOf(entity.ReputationEntity?.AwsSesManagedStatus) ?? causeOf(entity.ReputationEntity?.CustomerManagedStatus);
    return cause ? { status, cause } : { status };
  }

  /**
   * Leaves the identity associated with `tenant` only: a name once held by another client (deleted, then proven by
   * this one) must not stay usable through that client's tenant. One paged listing, then the removals and the new
   * association in one wave.
   */
  private async moveToTenant(identityArn: string, tenant: string): Promise<void> {
    const others: string[] = [];
    for await (const page of paginateListResourceTenants({ client: this.ses }, { ResourceArn: identityArn })) {
      for (const entry of page.ResourceTenants ?? [])
        if (entry.TenantName && entry.TenantName !== tenant) others.push(entry.TenantName);
    }
    await Promise.all([
      ...others.map((other) =>
        unless(
          'absent',
          async () => {
            await this.ses.send(
              new DeleteTenantResourceAssociationCommand({ TenantName: other, ResourceArn: identityArn }),
            );
          },
          () => undefined,
        ),
      ),
      this.associate(tenant, identityArn),
    ]);
  }

  private async associate(tenant: string, resourceArn: string): Promise<void> {
    await unless(
      'exists',
      async () => {
        await this.ses.send(
          new CreateTenantResourceAssociationCommand({ TenantName: tenant, ResourceArn: resourceArn }),
        );
      },
      () => undefined,
    );
  }

  private async tenantArnOf(tenant: string): Promise<string> {
    const out = await this.ses.send(new GetTenantCommand({ TenantName: tenant }));
    if (!out.Tenant?.TenantArn) throw new Error(`SES answered GetTenant ${tenant} without its ARN`);
    return out.Tenant.TenantArn;
  }

  /** The account's ARN scope, reading the tenant once when no earlier answer gave it. */
  private async scopeVia(tenant: string): Promise<ArnScope> {
    return this.scope ?? this.learnScope(await this.tenantArnOf(tenant));
  }

  private learnScope(tenantArn: string): ArnScope {
    const { partition, region, accountId } = parse(tenantArn);
    this.scope = { partition, region, accountId };
    return this.scope;
  }

  private arn(scope: ArnScope, resource: string): string {
    return build({ ...scope, service: 'ses', resource });
  }
}

const causeOf = (record: StatusRecord | undefined): string | undefined =>
  record?.Status === 'DISABLED' && record.Cause ? record.Cause : undefined;
