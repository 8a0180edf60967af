import { fileURLToPath } from 'node:url';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { queueFunctions } from '../../functions/queues.js';
import { routeKey, routes } from '../../functions/routes.js';
import { scheduledFunctions } from '../../functions/scheduled.js';
import { composeApp } from '../../infra/compose-app.js';
import { createNodeFunction } from '../../infra/node-function.js';
import { routesOnAws } from '../../infra/route-function.js';
import { SharedResources, type ResourceNeeds } from '../../infra/shared-resources.js';
import type { MailSenders } from '../../infra/stack-settings.js';
import {
  appWith,
  arnText,
  asList,
  logicalIdOf,
  SENDER_CONTEXT,
  statementsOfRole,
  synthesize,
  type Resource,
  type Statement,
} from './support/synthesized-stack.js';

/**
 * Who may send as whom, on the synthesized template: clients' mail never From the service's own sender nor through its
 * configuration set, the service's own mail From its address only, and only the functions that manage clients'
 * sending domains touch SES identities and tenants — never the service's own.
 */
const { app, resources } = synthesize();

const SYSTEM = SENDER_CONTEXT.systemFromEmail; // accounts@mail.example.org
const ONBOARDING = SENDER_CONTEXT.onboardingFromAddress; // onboarding@onboarding.example.net
const SES_ARN = 'arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>';
const ses = (resource: string) => `${SES_ARN}:${resource}`;
/** The root stack's name (infra/compose-app.ts STACK_NAME), lower-case. */
const TENANT_PREFIX = 'emaillifecycle-';

const ENTRIES: { description: string; needs: ResourceNeeds }[] = [
  ...routesOnAws(routes).map((route) => ({ description: routeKey(route), needs: route })),
  ...queueFunctions.map((q) => ({ description: `${q.queue} queue -> ${q.handler}`, needs: q })),
  ...scheduledFunctions.map((s) => ({ description: `every ${s.everyMinutes} min -> ${s.handler}`, needs: s })),
];

/** What SES may be asked to change or reveal of identities and tenants: all but sending and a tenant's status. */
const MANAGEMENT_ACTIONS = [
  'ses:CreateEmailIdentity',
  'ses:GetEmailIdentity',
  'ses:DeleteEmailIdentity',
  'ses:PutEmailIdentityMailFromAttributes',
  'ses:TagResource',
  'ses:ListResourceTenants',
  'ses:CreateTenant',
  'ses:CreateTenantResourceAssociation',
  'ses:DeleteTenantResourceAssociation',
  'ses:UpdateReputationEntityPolicy',
  'ses:CreateConfigurationSet',
  'ses:CreateConfigurationSetEventDestination',
  'ses:GetConfigurationSet',
  'ses:GetConfigurationSetEventDestinations',
];

/** SES's managed `standard` reputation policy of the stack's region: the tenants' policy unless context says other. */
const STANDARD_POLICY = 'arn:<AWS::Partition>:ses:<AWS::Region>:aws:reputation-policy/standard';

/** Every SES permission of a role, one line per effect, action and resource (merged statements come apart). */
function sesGrantsOf(statements: Statement[]): string[] {
  return statements
    .flatMap((s) =>
      asList(s.Action)
        .filter((action) => action.startsWith('ses:'))
        .flatMap((action) =>
          asList(s.Resource).map(
            (resource) =>
              `${s.Effect} ${action} ${arnText(resource)}${s.Condition ? ` if ${JSON.stringify(s.Condition)}` : ''}`,
          ),
        ),
    )
    .sort();
}

function functionOf(all: Record<string, Resource>, description: string) {
  const found = Object.values(all).filter(
    (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === description,
  );
  expect(found).toHaveLength(1);
  const fn = found[0]!;
  return {
    grants: sesGrantsOf(statementsOfRole(all, logicalIdOf(fn.Properties.Role))),
    env: (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables,
  };
}

/** The clients' configuration set's logical id, then the service's own mail's. */
function configurationSetIds(all: Record<string, Resource>): { clients: string; system: string } {
  const ids = Object.entries(all)
    .filter(([, r]) => r.Type === 'AWS::SES::ConfigurationSet')
    .map(([id]) => id);
  expect(ids).toHaveLength(2);
  const system = ids.find((id) => id.includes('SystemConfigurationSet'))!;
  return { clients: ids.find((id) => id !== system)!, system };
}

const sets = configurationSetIds(resources);
const systemIdentities = [ses('identity/mail.example.org'), ses(`identity/${SYSTEM}`)];

/** The client senders' SES grants, exactly. */
const clientSendGrants = (prefix: string, set: { clients: string; system: string }) =>
  [
    `Allow ses:SendEmail ${ses('identity/*')}`,
    `Allow ses:SendEmail ${ses(`configuration-set/<${set.clients}>`)}`,
    `Allow ses:SendEmail ${ses(`configuration-set/${prefix}client-*`)}`,
    `Deny ses:SendEmail ${ses(`configuration-set/<${set.system}>`)}`,
    ...systemIdentities.map((arn) => `Deny ses:SendEmail ${arn}`),
    `Deny ses:SendEmail ${ses('identity/*')} if ${JSON.stringify({
      StringLike: { 'ses:FromAddress': [SYSTEM, '*@mail.example.org', '*@*.mail.example.org'] },
    })}`,
    `Allow ses:GetTenant ${ses(`tenant/${prefix}client-*`)}`,
    `Allow ses:GetReputationEntity ${ses(`tenant/${prefix}client-*`)}`,
  ].sort();

/** A manager's SES grants, exactly (with the reputation policy's, unless it is null: none). */
function manageGrants(
  prefix: string,
  set: { clients: string; system: string },
  policy: string | null = STANDARD_POLICY,
): string[] {
  const tenants = ses(`tenant/${prefix}client-*`);
  const identities = ses('identity/*');
  const clientsSet = ses(`configuration-set/<${set.clients}>`);
  const clientSets = ses(`configuration-set/${prefix}client-*`);
  const identityActions = MANAGEMENT_ACTIONS.slice(0, 6);
  const associations = ['ses:CreateTenantResourceAssociation', 'ses:DeleteTenantResourceAssociation'];
  const own = [
    ...systemIdentities,
    ses('identity/*.mail.example.org'),
    ses('identity/onboarding.example.net'),
    ses(`identity/${ONBOARDING}`),
    ses('identity/*.onboarding.example.net'),
  ];
  return [
    ...identityActions.map((action) => `Allow ${action} ${identities}`),
    ...['ses:CreateTenant', 'ses:GetTenant', 'ses:GetReputationEntity', 'ses:TagResource'].map(
      (action) => `Allow ${action} ${tenants}`,
    ),
    // Each client's own set, made and associated at run time; the shared set only read, as their template.
    ...['ses:CreateConfigurationSet', 'ses:CreateConfigurationSetEventDestination'].map(
      (action) => `Allow ${action} ${clientSets}`,
    ),
    ...['ses:GetConfigurationSet', 'ses:GetConfigurationSetEventDestinations'].map(
      (action) => `Allow ${action} ${clientsSet}`,
    ),
    ...associations.flatMap((action) => [tenants, identities, clientSets].map((arn) => `Allow ${action} ${arn}`)),
    ...(policy ? [tenants, policy].map((arn) => `Allow ses:UpdateReputationEntityPolicy ${arn}`) : []),
    ...identityActions.flatMap((action) => own.map((arn) => `Deny ${action} ${arn}`)),
    ...associations.flatMap((action) =>
      [ses(`configuration-set/<${set.system}>`), ...systemIdentities].map((arn) => `Deny ${action} ${arn}`),
    ),
  ].sort();
}

describe('clients’ mail (sendsEmail)', () => {
  const senders = ENTRIES.filter((e) => e.needs.sendsEmail);

  it('is sent by the executor', () => {
    expect(senders.map((e) => e.description)).toContain('workflow queue -> execute-workflow');
  });

  it.each(senders.map((e) => [e.description, e] as const))(
    '%s may send from any identity through the clients’ set, never as the service nor through its set',
    (description) => {
      const { grants, env } = functionOf(resources, description);
      expect(grants).toEqual(clientSendGrants(TENANT_PREFIX, sets));
      expect(env.SES_CONFIGURATION_SET).toEqual({ Ref: sets.clients });
      expect(env).not.toHaveProperty('SES_SYSTEM_CONFIGURATION_SET');
      expect(env.SES_TENANT_PREFIX).toBe(TENANT_PREFIX);
      expect(env.ONBOARDING_FROM_ADDRESS).toBe(ONBOARDING);
    },
  );
});

describe('the service’s own mail (sendsSystemMail)', () => {
  const senders = ENTRIES.filter((e) => (e.needs as { sendsSystemMail?: boolean }).sendsSystemMail);

  it('is sent by the system-mail and webhook functions', () => {
    expect(senders.map((e) => e.description)).toEqual(
      expect.arrayContaining(['system-mail queue -> send-system-mail', 'webhooks queue -> deliver-webhook']),
    );
  });

  it.each(senders.map((e) => [e.description, e] as const))(
    '%s may send From the system address only, through the system set',
    (description) => {
      const { grants, env } = functionOf(resources, description);
      const fromSystem = JSON.stringify({ StringEquals: { 'ses:FromAddress': SYSTEM } });
      expect(grants).toEqual(
        [...systemIdentities, ses(`configuration-set/<${sets.system}>`)]
          .map((arn) => `Allow ses:SendEmail ${arn} if ${fromSystem}`)
          .sort(),
      );
      expect(env.SES_SYSTEM_CONFIGURATION_SET).toEqual({ Ref: sets.system });
      expect(env).not.toHaveProperty('SES_CONFIGURATION_SET');
      expect(env).not.toHaveProperty('SES_TENANT_PREFIX');
    },
  );

  it('refuses an entry that would send both (the clients’ Deny would stop its own mail)', () => {
    const stack = new Stack(appWith(), 'Both');
    const shared = new SharedResources(stack, 'Shared', {
      queueFunctions: [],
      deletionProtection: false,
      senderEnvironment: {},
      mailSenders: {
        systemFromAddress: SYSTEM,
        onboardingFromAddress: ONBOARDING,
        tenantReputationPolicyArn: undefined,
      },
    });
    const fn = probeFunction(stack);
    expect(() => shared.connect(fn, 'probe', { sendsEmail: true, sendsSystemMail: true })).toThrow(/probe.*both/);
  });
});

describe('clients’ sending domains and tenants (managesSenders)', () => {
  it.each(ENTRIES.map((e) => [e.description, e] as const))(
    '%s manages SES identities and tenants only if its entry says managesSenders',
    (description, entry) => {
      const { grants, env } = functionOf(resources, description);
      const managing = grants.filter((g) => g.startsWith('Allow') && MANAGEMENT_ACTIONS.includes(g.split(' ')[1]!));
      if (!(entry.needs as { managesSenders?: boolean }).managesSenders) {
        expect(managing).toEqual([]);
        if (!entry.needs.sendsEmail) expect(env).not.toHaveProperty('SES_TENANT_PREFIX');
        return;
      }
      expect(grants).toEqual(manageGrants(TENANT_PREFIX, sets));
      expect(env).toMatchObject({ SES_CONFIGURATION_SET: { Ref: sets.clients }, SES_TENANT_PREFIX: TENANT_PREFIX });
    },
  );

  it('grants a manager exactly its identity, tenant, set and association actions, never on the service’s identities', () => {
    const { grants, env, set } = probeStack({ managesSenders: true });
    expect(grants).toEqual(manageGrants('senders-', set));
    expect(env).toMatchObject({ SES_CONFIGURATION_SET: { Ref: set.clients }, SES_TENANT_PREFIX: 'senders-' });
  });

  it('puts SES’s standard reputation policy of the stack’s region on the tenants when context names none', () => {
    const { grants, env, set } = probeStack({ managesSenders: true });
    expect(grants).toEqual(expect.arrayContaining([`Allow ses:UpdateReputationEntityPolicy ${STANDARD_POLICY}`]));
    expect(grants.filter((g) => g.includes('reputation-policy/'))).toEqual([
      `Allow ses:UpdateReputationEntityPolicy ${STANDARD_POLICY}`,
    ]);
    expect(arnText(env.SES_TENANT_REPUTATION_POLICY_ARN)).toBe(STANDARD_POLICY);
    expect(set.clients).toBeDefined();
  });

  it('lets a manager apply the reputation policy of context sesTenantReputationPolicyArn, and that one only', () => {
    const policy = 'arn:aws:ses:eu-west-1:aws:reputation-policy/strict';
    const { grants, env, set } = probeStack({ managesSenders: true }, policy);
    expect(grants).toEqual(manageGrants('senders-', set, policy));
    expect(env.SES_TENANT_REPUTATION_POLICY_ARN).toBe(policy);
  });

  it('applies no reputation policy, and grants none, with sesTenantReputationPolicyArn=none', () => {
    const { grants, env, set } = probeStack({ managesSenders: true }, 'none');
    expect(grants).toEqual(manageGrants('senders-', set, null));
    expect(grants.some((g) => g.includes('ses:UpdateReputationEntityPolicy'))).toBe(false);
    expect(env).not.toHaveProperty('SES_TENANT_REPUTATION_POLICY_ARN');
  });

  it('reads the reputation policy from context: unset is the region’s standard, none is none, an ARN is that one', () => {
    const manager = ENTRIES.find((e) => (e.needs as { managesSenders?: boolean }).managesSenders)!;
    const envOf = (context: Record<string, string>) =>
      functionOf(synthesize(context).resources, manager.description).env;
    expect(arnText(functionOf(resources, manager.description).env.SES_TENANT_REPUTATION_POLICY_ARN)).toBe(
      STANDARD_POLICY,
    );
    expect(envOf({ sesTenantReputationPolicyArn: 'none' })).not.toHaveProperty('SES_TENANT_REPUTATION_POLICY_ARN');
    const strict = 'arn:aws:ses:eu-west-1:aws:reputation-policy/strict';
    expect(envOf({ sesTenantReputationPolicyArn: strict }).SES_TENANT_REPUTATION_POLICY_ARN).toBe(strict);
  });

  it('leaves no cdk-nag finding unacknowledged on a manager', () => {
    const { app: probeApp } = probeStack({ managesSenders: true });
    const report = new AwsSolutionsChecks().validateScope(probeApp);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });
});

describe('the service’s senders in CDK context', () => {
  it('gives every function of the tables both of the service’s addresses (the settings and domain routes refuse them too)', () => {
    for (const { description } of ENTRIES) {
      expect(functionOf(resources, description).env).toMatchObject({
        SYSTEM_FROM_EMAIL: SYSTEM,
        ONBOARDING_FROM_ADDRESS: ONBOARDING,
      });
    }
  });

  it('fails the synth without systemFromEmail, naming it', () => {
    expect(() => composeApp(appWith({ systemFromEmail: '' }))).toThrow(/systemFromEmail/);
  });

  it('fails the synth without onboardingFromAddress (every client’s tenant holds its domain), naming it', () => {
    expect(() => composeApp(appWith({ onboardingFromAddress: '' }))).toThrow(/onboardingFromAddress/);
  });

  it('never takes defaultFromAddress as the system sender: it is the onboarding sender’s deprecated name', () => {
    expect(() =>
      composeApp(appWith({ systemFromEmail: '', onboardingFromAddress: '', defaultFromAddress: ONBOARDING })),
    ).toThrow(/systemFromEmail/);
    const { resources: aliased } = synthesize({ onboardingFromAddress: '', defaultFromAddress: 'hi@old.example.net' });
    for (const { description } of ENTRIES) {
      const { env } = functionOf(aliased, description);
      expect(env).toMatchObject({ ONBOARDING_FROM_ADDRESS: 'hi@old.example.net', SYSTEM_FROM_EMAIL: SYSTEM });
      expect(env).not.toHaveProperty('DEFAULT_FROM_ADDRESS');
    }
    expect(() => composeApp(appWith({ defaultFromAddress: 'hi@old.example.net' }))).toThrow(
      /defaultFromAddress.*onboardingFromAddress/,
    );
  });

  it.each(['hello@mail.example.org', 'hello@MAIL.Example.org'])(
    'fails the synth when the onboarding sender (%s) shares the system sender’s domain',
    (onboarding) => {
      expect(() => composeApp(appWith({ onboardingFromAddress: onboarding }))).toThrow(
        /onboardingFromAddress.*domain other than "systemFromEmail"/,
      );
    },
  );

  it.each([
    'arn:aws:ses:eu-west-1:123456789012:reputation-policy/standard',
    'arn:aws:ses:::reputation-policy/standard',
    'standard',
    'None',
  ])('refuses %s as sesTenantReputationPolicyArn', (policy) => {
    expect(() => composeApp(appWith({ sesTenantReputationPolicyArn: policy }))).toThrow(/sesTenantReputationPolicyArn/);
  });

  it('puts the tenant prefix among the outputs, for the admin CLI', () => {
    const root = Template.fromStack(synthesize().root);
    root.hasOutput('SesTenantPrefix', { Value: TENANT_PREFIX });
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });
});

const FIXTURE_ENTRY = fileURLToPath(new URL('./fixtures/queue-handler.ts', import.meta.url));

function probeFunction(stack: Stack) {
  return createNodeFunction(stack, {
    entry: FIXTURE_ENTRY,
    description: 'probe',
    timeoutSeconds: 10,
    memoryMb: 128,
    environment: {},
    deletionProtection: false,
  });
}

/** A stack named `Senders` holding the shared resources and one function connected with `needs`. */
function probeStack(needs: ResourceNeeds, policy?: string) {
  const probeApp = appWith();
  const stack = new Stack(probeApp, 'Senders');
  const mailSenders: MailSenders = {
    systemFromAddress: SYSTEM,
    onboardingFromAddress: ONBOARDING,
    tenantReputationPolicyArn: policy,
  };
  const shared = new SharedResources(stack, 'Shared', {
    queueFunctions: [],
    deletionProtection: false,
    senderEnvironment: {},
    mailSenders,
  });
  shared.connect(probeFunction(stack), 'probe', needs);
  const all = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  return { app: probeApp, ...functionOf(all, 'probe'), set: configurationSetIds(all) };
}
