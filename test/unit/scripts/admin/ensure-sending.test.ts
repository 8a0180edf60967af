import { spawnSync } from 'node:child_process';
import {
  AlreadyExistsException,
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  GetConfigurationSetCommand,
  GetConfigurationSetEventDestinationsCommand,
  GetTenantCommand,
  SESv2Client,
  UpdateReputationEntityPolicyCommand,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureSendingOf } from '../../../../scripts/admin.js';
import { MemorySettingsStore } from '../../../../shared/adapters/memory/settings-store.js';
import { SesSenderIdentities } from '../../../../shared/adapters/ses/ses-identities.js';

const client = new SESv2Client({ region: 'eu-west-1' });
const sesMock = mockClient(client);
afterEach(() => sesMock.reset());

const meta = { $metadata: {} };
const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:EmailLifecycle-MailEventsTopic-AbC';
const tenantArn = (id: number) => `arn:aws:ses:eu-west-1:123456789012:tenant/emaillifecycle-client-${id}/tn-${id}`;
const clock = { now: () => new Date('2026-11-29T12:00:00Z') };

/** SES as a deployment has it: the clients' shared set with its SNS destination; nothing of the clients' yet. */
beforeEach(() => {
  sesMock.on(GetConfigurationSetCommand).resolves({
    ReputationOptions: { ReputationMetricsEnabled: true },
    SendingOptions: { SendingEnabled: true },
    SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
  });
  sesMock.on(GetConfigurationSetEventDestinationsCommand).resolves({
    EventDestinations: [
      {
        Name: 'status',
        Enabled: true,
        MatchingEventTypes: ['SEND', 'BOUNCE'],
        SnsDestination: { TopicArn: TOPIC_ARN },
      },
    ],
  });
  sesMock.on(CreateTenantCommand).callsFake((input: { TenantName: string }) => ({
    TenantArn: tenantArn(Number(input.TenantName.split('-').pop())),
  }));
  sesMock.on(CreateConfigurationSetCommand).resolves({});
  sesMock.on(CreateConfigurationSetEventDestinationCommand).resolves({});
  sesMock.on(CreateTenantResourceAssociationCommand).resolves({});
  sesMock.on(UpdateReputationEntityPolicyCommand).resolves({});
});

function deps() {
  const settings = new MemorySettingsStore({ get: async () => undefined });
  const senderIdentities = new SesSenderIdentities(client, {
    tenantPrefix: 'emaillifecycle-',
    configurationSet: 'ConfigurationSet-shared',
    onboardingIdentity: 'onboarding.example.net',
    reputationPolicyArn: 'arn:aws:ses:eu-west-1:aws:reputation-policy/standard',
  });
  return { settings, senderIdentities, clock };
}

const inputsOf = <I>(command: new (input: I) => unknown) =>
  sesMock.commandCalls(command as never).map((call) => (call.args[0] as { input: I }).input);

describe('admin ensure-sending', () => {
  it('gives a client with no tenant its tenant and own set, records both, and says it changed', async () => {
    // Prepare
    const d = deps();

    // Act
    const printed = await ensureSendingOf(d, 4);

    // Assess
    expect(printed).toEqual({
      client_id: 4,
      tenant: 'emaillifecycle-client-4',
      configuration_set: 'emaillifecycle-client-4',
      previous: null,
      changed: true,
    });
    expect(d.settings.senders.get(4)).toEqual({
      verified_domains: [],
      tenant: 'emaillifecycle-client-4',
      configuration_set: 'emaillifecycle-client-4',
    });
    expect(inputsOf(CreateConfigurationSetEventDestinationCommand)).toEqual([
      {
        ConfigurationSetName: 'emaillifecycle-client-4',
        EventDestinationName: 'status',
        EventDestination: {
          Enabled: true,
          MatchingEventTypes: ['SEND', 'BOUNCE'],
          SnsDestination: { TopicArn: TOPIC_ARN },
        },
      },
    ]);
    expect(inputsOf(CreateTenantResourceAssociationCommand).map((input) => input.ResourceArn)).toEqual([
      'arn:aws:ses:eu-west-1:123456789012:configuration-set/emaillifecycle-client-4',
      'arn:aws:ses:eu-west-1:123456789012:identity/onboarding.example.net',
    ]);
  });

  it('moves a client whose tenant predates its own set onto that set, keeping its verified domains', async () => {
    // Prepare: the tenant exists (made with the shared set), and the sending state names the shared set.
    const d = deps();
    d.settings.senders.set(9, {
      verified_domains: ['acme.example'],
      tenant: 'emaillifecycle-client-9',
      configuration_set: 'ConfigurationSet-shared',
    });
    sesMock.on(CreateTenantCommand).rejects(new AlreadyExistsException({ message: 'exists', ...meta }));
    sesMock
      .on(GetTenantCommand)
      .resolves({ Tenant: { TenantName: 'emaillifecycle-client-9', TenantArn: tenantArn(9) } });

    // Act
    const printed = await ensureSendingOf(d, 9);

    // Assess
    expect(printed).toEqual({
      client_id: 9,
      tenant: 'emaillifecycle-client-9',
      configuration_set: 'emaillifecycle-client-9',
      previous: { tenant: 'emaillifecycle-client-9', configuration_set: 'ConfigurationSet-shared' },
      changed: true,
    });
    expect(d.settings.senders.get(9)).toEqual({
      verified_domains: ['acme.example'],
      tenant: 'emaillifecycle-client-9',
      configuration_set: 'emaillifecycle-client-9',
    });
  });

  it('changes nothing the second time: SES’s AlreadyExists is no error, and the state already names both', async () => {
    // Prepare
    const d = deps();
    await ensureSendingOf(d, 4);
    const exists = () => new AlreadyExistsException({ message: 'exists', ...meta });
    sesMock.on(CreateTenantCommand).rejects(exists());
    sesMock
      .on(GetTenantCommand)
      .resolves({ Tenant: { TenantName: 'emaillifecycle-client-4', TenantArn: tenantArn(4) } });
    sesMock.on(CreateConfigurationSetCommand).rejects(exists());
    sesMock.on(CreateConfigurationSetEventDestinationCommand).rejects(exists());
    sesMock.on(CreateTenantResourceAssociationCommand).rejects(exists());

    // Act
    const again = await ensureSendingOf(d, 4);

    // Assess
    expect(again).toEqual({
      client_id: 4,
      tenant: 'emaillifecycle-client-4',
      configuration_set: 'emaillifecycle-client-4',
      previous: { tenant: 'emaillifecycle-client-4', configuration_set: 'emaillifecycle-client-4' },
      changed: false,
    });
  });

  it('refuses to run without --aws (exit 2): locally a tenant comes with the first domain’s proof', {
    timeout: 30_000,
  }, () => {
    // Act
    const run = spawnSync('node_modules/.bin/tsx', ['scripts/admin.ts', 'ensure-sending', '--client', '1'], {
      env: { ...process.env, ADMIN_TARGET: 'local' },
      encoding: 'utf8',
    });

    // Assess
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('admin: ensure-sending makes SES tenants and configuration sets: run it with --aws');
  });
});
