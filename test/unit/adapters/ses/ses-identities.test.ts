import {
  AlreadyExistsException,
  BadRequestException,
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
  LimitExceededException,
  ListResourceTenantsCommand,
  NotFoundException,
  PutEmailIdentityMailFromAttributesCommand,
  SESv2Client,
  TooManyRequestsException,
  UpdateReputationEntityPolicyCommand,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SesSenderIdentities,
  type SesSenderIdentitiesOptions,
} from '../../../../shared/adapters/ses/ses-identities.js';

const client = new SESv2Client({ region: 'eu-west-1' });
const sesMock = mockClient(client);
afterEach(() => sesMock.reset());

const meta = { $metadata: {} };
const TENANT = 'els-client-7';
const TENANT_ARN = 'arn:aws:ses:eu-west-1:123456789012:tenant/els-client-7/tn-0abc';
const options: SesSenderIdentitiesOptions = {
  tenantPrefix: 'els-',
  configurationSet: 'lifecycle-events',
  onboardingIdentity: 'onboarding.lifecycle.example',
  reputationPolicyArn: undefined,
};
const exists = () => new AlreadyExistsException({ message: 'exists', ...meta });
const notFound = () => new NotFoundException({ message: 'not found', ...meta });

const inputsOf = <I>(command: new (input: I) => unknown) =>
  sesMock.commandCalls(command as never).map((call) => (call.args[0] as { input: I }).input);

const SET_ARN = 'arn:aws:ses:eu-west-1:123456789012:configuration-set/els-client-7';
const ONBOARDING_ARN = 'arn:aws:ses:eu-west-1:123456789012:identity/onboarding.lifecycle.example';
const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:EmailLifecycle-MailEventsTopic-AbC';
const EVERY_EVENT_TYPE = [
  'SEND',
  'REJECT',
  'BOUNCE',
  'COMPLAINT',
  'DELIVERY',
  'OPEN',
  'CLICK',
  'RENDERING_FAILURE',
  'DELIVERY_DELAY',
  'SUBSCRIPTION',
] as const;

/** The clients' shared set as the stack makes it: the template of every client's own set. */
function sharedSetIs() {
  sesMock.on(GetConfigurationSetCommand).resolves({
    ConfigurationSetName: 'lifecycle-events',
    ReputationOptions: { ReputationMetricsEnabled: true, LastFreshStart: new Date('2026-01-01T00:00:00Z') },
    SendingOptions: { SendingEnabled: true },
    SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    Tags: [{ Key: 'stack', Value: 'EmailLifecycle' }],
  });
  sesMock.on(GetConfigurationSetEventDestinationsCommand).resolves({
    EventDestinations: [
      {
        Name: 'MailEventsDestination1A2B',
        Enabled: true,
        MatchingEventTypes: [...EVERY_EVENT_TYPE],
        SnsDestination: { TopicArn: TOPIC_ARN },
      },
      // Not copied: publishing to a stream would need a role passed to SES.
      {
        Name: 'metrics',
        Enabled: true,
        MatchingEventTypes: ['SEND'],
        KinesisFirehoseDestination: { IamRoleArn: 'arn:role', DeliveryStreamArn: 'arn:stream' },
      },
    ],
  });
}

/** What a client's first sending makes: tenant, set, destination, associations all new. */
function nothingExists() {
  sharedSetIs();
  sesMock.on(CreateTenantCommand).resolves({ TenantName: TENANT, TenantArn: TENANT_ARN });
  sesMock.on(CreateConfigurationSetCommand).resolves({});
  sesMock.on(CreateConfigurationSetEventDestinationCommand).resolves({});
  sesMock.on(CreateTenantResourceAssociationCommand).resolves({});
}

describe('SesSenderIdentities.ensureClientSending', () => {
  it('creates the tenant with TENANT-scoped suppression and a set of its own, associated with the tenant with the onboarding identity', async () => {
    // Prepare
    nothingExists();

    // Act
    const sending = await new SesSenderIdentities(client, options).ensureClientSending(7);

    // Assess
    expect(sending).toEqual({ tenant: TENANT, configurationSet: 'els-client-7' });
    expect(inputsOf(CreateTenantCommand)).toEqual([
      {
        TenantName: TENANT,
        SuppressionAttributes: { SuppressionScope: 'TENANT', SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      },
    ]);
    expect(inputsOf(CreateTenantResourceAssociationCommand)).toEqual([
      { TenantName: TENANT, ResourceArn: SET_ARN },
      { TenantName: TENANT, ResourceArn: ONBOARDING_ARN },
    ]);
    expect(inputsOf(GetTenantCommand)).toEqual([]);
    expect(inputsOf(UpdateReputationEntityPolicyCommand)).toEqual([]);
  });

  it('makes the client’s set with the shared set’s reputation, sending and suppression options', async () => {
    // Prepare
    nothingExists();

    // Act
    await new SesSenderIdentities(client, options).ensureClientSending(7);

    // Assess
    expect(inputsOf(GetConfigurationSetCommand)).toEqual([{ ConfigurationSetName: 'lifecycle-events' }]);
    expect(inputsOf(CreateConfigurationSetCommand)).toEqual([
      {
        ConfigurationSetName: 'els-client-7',
        ReputationOptions: { ReputationMetricsEnabled: true },
        SendingOptions: { SendingEnabled: true },
        SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      },
    ]);
  });

  it('gives the client’s set the shared set’s SNS destination: every event type, the same topic', async () => {
    // Prepare
    nothingExists();

    // Act
    await new SesSenderIdentities(client, options).ensureClientSending(7);

    // Assess
    expect(inputsOf(GetConfigurationSetEventDestinationsCommand)).toEqual([
      { ConfigurationSetName: 'lifecycle-events' },
    ]);
    expect(inputsOf(CreateConfigurationSetEventDestinationCommand)).toEqual([
      {
        ConfigurationSetName: 'els-client-7',
        EventDestinationName: 'MailEventsDestination1A2B',
        EventDestination: {
          Enabled: true,
          MatchingEventTypes: [...EVERY_EVENT_TYPE],
          SnsDestination: { TopicArn: TOPIC_ARN },
        },
      },
    ]);
  });

  it('finds a tenant, set, destination and associations an earlier run made (AlreadyExists is no error)', async () => {
    // Prepare
    sharedSetIs();
    sesMock.on(CreateTenantCommand).rejects(exists());
    sesMock.on(GetTenantCommand).resolves({ Tenant: { TenantName: TENANT, TenantArn: TENANT_ARN } });
    sesMock.on(CreateConfigurationSetCommand).rejects(exists());
    sesMock.on(CreateConfigurationSetEventDestinationCommand).rejects(exists());
    sesMock.on(CreateTenantResourceAssociationCommand).rejects(exists());

    // Act
    const sending = await new SesSenderIdentities(client, options).ensureClientSending(7);

    // Assess
    expect(sending).toEqual({ tenant: TENANT, configurationSet: 'els-client-7' });
    expect(inputsOf(GetTenantCommand)).toEqual([{ TenantName: TENANT }]);
    expect(inputsOf(CreateConfigurationSetEventDestinationCommand)).toHaveLength(1);
    expect(inputsOf(CreateTenantResourceAssociationCommand)).toHaveLength(2);
  });

  it('completes a set an earlier run made without its destination', async () => {
    // Prepare
    nothingExists();
    sesMock.on(CreateConfigurationSetCommand).rejects(exists());

    // Act
    await new SesSenderIdentities(client, options).ensureClientSending(7);

    // Assess
    expect(inputsOf(CreateConfigurationSetEventDestinationCommand).map((input) => input.ConfigurationSetName)).toEqual([
      'els-client-7',
    ]);
  });

  it('reads the shared set once per container, whatever the number of clients', async () => {
    // Prepare
    nothingExists();
    const identities = new SesSenderIdentities(client, options);

    // Act
    await identities.ensureClientSending(7);
    await identities.ensureClientSending(8);

    // Assess
    expect(inputsOf(GetConfigurationSetCommand)).toHaveLength(1);
    expect(inputsOf(GetConfigurationSetEventDestinationsCommand)).toHaveLength(1);
    expect(inputsOf(CreateConfigurationSetCommand).map((input) => input.ConfigurationSetName)).toEqual([
      'els-client-7',
      'els-client-8',
    ]);
  });

  it('associates nothing when the set cannot be made (the configuration sets’ quota), and throws', async () => {
    // Prepare
    nothingExists();
    sesMock
      .on(CreateConfigurationSetCommand)
      .rejects(new LimitExceededException({ message: 'too many sets', ...meta }));

    // Act & Assess
    await expect(new SesSenderIdentities(client, options).ensureClientSending(7)).rejects.toThrow('too many sets');
    expect(inputsOf(CreateTenantResourceAssociationCommand)).toEqual([]);
  });

  it('puts the configured reputation policy on the tenant, by its ARN', async () => {
    // Prepare
    nothingExists();
    sesMock.on(UpdateReputationEntityPolicyCommand).resolves({});
    const policy = 'arn:aws:ses:eu-west-1:aws:reputation-policy/standard';

    // Act
    await new SesSenderIdentities(client, {
      ...options,
      onboardingIdentity: undefined,
      reputationPolicyArn: policy,
    }).ensureClientSending(7);

    // Assess
    expect(inputsOf(UpdateReputationEntityPolicyCommand)).toEqual([
      { ReputationEntityType: 'RESOURCE', ReputationEntityReference: TENANT_ARN, ReputationEntityPolicy: policy },
    ]);
    expect(inputsOf(CreateTenantResourceAssociationCommand).map((input) => input.ResourceArn)).toEqual([SET_ARN]);
  });

  it('throws any other error (a quota, throttling after the SDK’s retries)', async () => {
    // Prepare
    sharedSetIs();
    sesMock.on(CreateConfigurationSetCommand).resolves({});
    sesMock.on(CreateConfigurationSetEventDestinationCommand).resolves({});
    sesMock.on(CreateTenantCommand).rejects(new TooManyRequestsException({ message: 'slow down', ...meta }));

    // Act & Assess
    await expect(new SesSenderIdentities(client, options).ensureClientSending(7)).rejects.toThrow('slow down');
  });
});

describe('SesSenderIdentities.createDomainIdentity', () => {
  const IDENTITY_ARN = 'arn:aws:ses:eu-west-1:123456789012:identity/acme.example';

  it('creates the identity with 2048-bit Easy DKIM and the clients’ set, sets the MAIL FROM, associates it with the tenant', async () => {
    // Prepare
    sesMock.on(CreateEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: ['t1', 't2', 't3'] } });
    sesMock.on(GetTenantCommand).resolves({ Tenant: { TenantName: TENANT, TenantArn: TENANT_ARN } });
    sesMock.on(PutEmailIdentityMailFromAttributesCommand).resolves({});
    sesMock.on(ListResourceTenantsCommand).resolves({ ResourceTenants: [] });
    sesMock.on(CreateTenantResourceAssociationCommand).resolves({});

    // Act
    const out = await new SesSenderIdentities(client, options).createDomainIdentity('acme.example', {
      tenant: TENANT,
      mailFromDomain: 'bounce.acme.example',
    });

    // Assess
    expect(out).toEqual({ dkimTokens: ['t1', 't2', 't3'] });
    expect(inputsOf(CreateEmailIdentityCommand)).toEqual([
      {
        EmailIdentity: 'acme.example',
        DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
        ConfigurationSetName: 'lifecycle-events',
        Tags: [{ Key: 'tenant', Value: TENANT }],
      },
    ]);
    expect(inputsOf(PutEmailIdentityMailFromAttributesCommand)).toEqual([
      {
        EmailIdentity: 'acme.example',
        MailFromDomain: 'bounce.acme.example',
        BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
      },
    ]);
    expect(inputsOf(ListResourceTenantsCommand)).toEqual([{ ResourceArn: IDENTITY_ARN }]);
    expect(inputsOf(CreateTenantResourceAssociationCommand)).toEqual([
      { TenantName: TENANT, ResourceArn: IDENTITY_ARN },
    ]);
    expect(inputsOf(DeleteTenantResourceAssociationCommand)).toEqual([]);
    expect(inputsOf(GetEmailIdentityCommand)).toEqual([]);
  });

  it('takes over an existing identity: its tokens from SES, other tenants’ associations removed, its own kept', async () => {
    // Prepare
    sesMock.on(CreateEmailIdentityCommand).rejects(exists());
    sesMock.on(GetTenantCommand).resolves({ Tenant: { TenantName: TENANT, TenantArn: TENANT_ARN } });
    sesMock.on(GetEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: ['o1', 'o2', 'o3'] } });
    sesMock.on(PutEmailIdentityMailFromAttributesCommand).resolves({});
    sesMock
      .on(ListResourceTenantsCommand)
      .resolvesOnce({ ResourceTenants: [{ TenantName: 'els-client-3' }], NextToken: 'p2' })
      .resolvesOnce({ ResourceTenants: [{ TenantName: TENANT }, { TenantName: 'els-client-4' }] });
    sesMock.on(DeleteTenantResourceAssociationCommand, { TenantName: 'els-client-4' }).rejects(notFound());
    sesMock.on(CreateTenantResourceAssociationCommand).rejects(exists());

    // Act
    const out = await new SesSenderIdentities(client, options).createDomainIdentity('acme.example', {
      tenant: TENANT,
      mailFromDomain: 'bounce.acme.example',
    });

    // Assess
    expect(out).toEqual({ dkimTokens: ['o1', 'o2', 'o3'] });
    // Both pages read (the paginator reuses one input object, so only the last state can be seen).
    const listings = inputsOf(ListResourceTenantsCommand);
    expect(listings).toHaveLength(2);
    expect(listings[1]).toMatchObject({ ResourceArn: IDENTITY_ARN, NextToken: 'p2' });
    expect(inputsOf(DeleteTenantResourceAssociationCommand)).toEqual([
      { TenantName: 'els-client-3', ResourceArn: IDENTITY_ARN },
      { TenantName: 'els-client-4', ResourceArn: IDENTITY_ARN },
    ]);
    expect(inputsOf(CreateTenantResourceAssociationCommand)).toEqual([
      { TenantName: TENANT, ResourceArn: IDENTITY_ARN },
    ]);
  });

  it.each([
    ['CreateEmailIdentity', CreateEmailIdentityCommand],
    ['PutEmailIdentityMailFromAttributes', PutEmailIdentityMailFromAttributesCommand],
  ])(
    'turns a BadRequestException of %s into a PermanentFailure (the claim fails identity_refused)',
    async (_name, command) => {
      // Prepare
      sesMock.on(CreateEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: ['t1', 't2', 't3'] } });
      sesMock.on(GetTenantCommand).resolves({ Tenant: { TenantName: TENANT, TenantArn: TENANT_ARN } });
      sesMock.on(PutEmailIdentityMailFromAttributesCommand).resolves({});
      sesMock.on(ListResourceTenantsCommand).resolves({});
      sesMock.on(CreateTenantResourceAssociationCommand).resolves({});
      sesMock.on(command as never).rejects(new BadRequestException({ message: 'Domain not allowed', ...meta }));

      // Act & Assess
      await expect(
        new SesSenderIdentities(client, options).createDomainIdentity('acme.example', {
          tenant: TENANT,
          mailFromDomain: 'bounce.acme.example',
        }),
      ).rejects.toMatchObject({ name: 'PermanentFailure', reason: 'identity_refused' });
    },
  );

  it('reads the account from a tenant ARN once per container', async () => {
    // Prepare
    nothingExists();
    sesMock.on(CreateEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: ['t1', 't2', 't3'] } });
    sesMock.on(PutEmailIdentityMailFromAttributesCommand).resolves({});
    sesMock.on(ListResourceTenantsCommand).resolves({});
    const identities = new SesSenderIdentities(client, options);

    // Act
    await identities.ensureClientSending(7);
    await identities.createDomainIdentity('a.example', { tenant: TENANT, mailFromDomain: 'bounce.a.example' });
    await identities.createDomainIdentity('b.example', { tenant: TENANT, mailFromDomain: 'bounce.b.example' });

    // Assess
    expect(inputsOf(GetTenantCommand)).toEqual([]);
  });
});

describe('SesSenderIdentities reads', () => {
  it('maps GetEmailIdentity to the identity status', async () => {
    // Prepare
    sesMock.on(GetEmailIdentityCommand).resolves({
      VerifiedForSendingStatus: true,
      DkimAttributes: { Status: 'SUCCESS', Tokens: ['t1', 't2', 't3'] },
      MailFromAttributes: {
        MailFromDomain: 'bounce.acme.example',
        MailFromDomainStatus: 'PENDING',
        BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
      },
    });

    // Act
    const status = await new SesSenderIdentities(client, options).getDomainIdentity('acme.example');

    // Assess
    expect(status).toEqual({
      verifiedForSending: true,
      dkimStatus: 'SUCCESS',
      dkimTokens: ['t1', 't2', 't3'],
      mailFromDomain: 'bounce.acme.example',
      mailFromStatus: 'PENDING',
    });
    expect(inputsOf(GetEmailIdentityCommand)).toEqual([{ EmailIdentity: 'acme.example' }]);
  });

  it('answers undefined for an identity SES does not have, and deleting one is no error', async () => {
    // Prepare
    sesMock.on(GetEmailIdentityCommand).rejects(notFound());
    sesMock.on(DeleteEmailIdentityCommand).rejects(notFound());
    const identities = new SesSenderIdentities(client, options);

    // Act & Assess
    await expect(identities.getDomainIdentity('gone.example')).resolves.toBeUndefined();
    await expect(identities.deleteDomainIdentity('gone.example')).resolves.toBeUndefined();
    expect(inputsOf(DeleteEmailIdentityCommand)).toEqual([{ EmailIdentity: 'gone.example' }]);
  });

  it('answers the tenant’s sending status; a paused one with the cause its reputation entity gives', async () => {
    // Prepare
    sesMock
      .on(GetTenantCommand)
      .resolvesOnce({ Tenant: { TenantName: TENANT, TenantArn: TENANT_ARN, SendingStatus: 'ENABLED' } })
      .resolvesOnce({ Tenant: { TenantName: TENANT, TenantArn: TENANT_ARN, SendingStatus: 'DISABLED' } });
    sesMock.on(GetReputationEntityCommand).resolves({
      ReputationEntity: {
        AwsSesManagedStatus: { Status: 'DISABLED', Cause: 'Bounce rate above 10%' },
        CustomerManagedStatus: { Status: 'ENABLED' },
      },
    });
    const identities = new SesSenderIdentities(client, options);

    // Act
    const enabled = await identities.tenantStatus(TENANT);
    const paused = await identities.tenantStatus(TENANT);

    // Assess
    expect(enabled).toEqual({ status: 'ENABLED' });
    expect(paused).toEqual({ status: 'DISABLED', cause: 'Bounce rate above 10%' });
    expect(inputsOf(GetReputationEntityCommand)).toEqual([
      { ReputationEntityType: 'RESOURCE', ReputationEntityReference: TENANT_ARN },
    ]);
  });

  it('throws a GetEmailIdentity failure that is not NotFound', async () => {
    // Prepare
    sesMock.on(GetEmailIdentityCommand).rejects(new TooManyRequestsException({ message: 'slow', ...meta }));

    // Act & Assess
    await expect(new SesSenderIdentities(client, options).getDomainIdentity('a.example')).rejects.toThrow('slow');
  });
});
