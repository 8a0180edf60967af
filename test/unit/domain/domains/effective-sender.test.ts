import { describe, expect, it } from 'vitest';
import {
  effectiveSenderOf,
  fromAddressProblem,
  isSandboxRecipient,
  type EffectiveSenderInput,
} from '../../../../shared/domain/domains/effective-sender.js';

const SYSTEM = 'accounts@email-lifecycle.example';
const ONBOARDING = 'onboarding@sandbox.email-lifecycle.example';

const input = (over: Partial<EffectiveSenderInput> = {}): EffectiveSenderInput => ({
  settings: {},
  clientName: 'Acme Inc',
  sender: undefined,
  onboardingFrom: ONBOARDING,
  reserved: [SYSTEM, ONBOARDING],
  ...over,
});

describe('effectiveSenderOf', () => {
  it.each([
    {
      name: 'a From at a verified domain is used, with the settings name',
      settings: { email_from_address: 'hello@acme.example', email_from_name: 'Acme' },
      domains: ['acme.example'],
      want: { fromAddress: 'hello@acme.example', fromName: 'Acme', fromStatus: 'verified', sandbox: false },
    },
    {
      name: 'the domain matches whatever the case',
      settings: { email_from_address: 'Hello@ACME.example' },
      domains: ['acme.example'],
      want: { fromAddress: 'hello@acme.example', fromName: 'Acme Inc', fromStatus: 'verified', sandbox: false },
    },
    {
      name: 'no From set and a verified domain: no-reply at the first one, the brand as name',
      settings: { brand_name: 'Acme Brand' },
      domains: ['first.example', 'second.example'],
      want: { fromAddress: 'no-reply@first.example', fromName: 'Acme Brand', fromStatus: 'unset', sandbox: false },
    },
    {
      name: 'no verified domain: the onboarding sender under the account name, in the sandbox',
      settings: { email_from_name: 'Your sign-in link' },
      domains: [],
      want: { fromAddress: ONBOARDING, fromName: 'Acme Inc', fromStatus: 'unset', sandbox: true },
    },
    {
      name: "a legacy From at another client's domain falls back to the verified default",
      settings: { email_from_address: 'ceo@other-client.example' },
      domains: ['acme.example'],
      want: { fromAddress: 'no-reply@acme.example', fromStatus: 'not_verified', sandbox: false },
    },
    {
      name: "a legacy From at another client's domain and no domain: the sandbox",
      settings: { email_from_address: 'ceo@other-client.example' },
      domains: [],
      want: { fromAddress: ONBOARDING, fromStatus: 'not_verified', sandbox: true },
    },
    {
      name: 'a legacy From at the system address never goes out',
      settings: { email_from_address: SYSTEM },
      domains: ['acme.example'],
      want: { fromAddress: 'no-reply@acme.example', fromStatus: 'not_verified', sandbox: false },
    },
    {
      name: 'a subdomain of a verified domain is not covered',
      settings: { email_from_address: 'news@mail.acme.example' },
      domains: ['acme.example'],
      want: { fromAddress: 'no-reply@acme.example', fromStatus: 'not_verified', sandbox: false },
    },
  ])('$name', ({ settings, domains, want }) => {
    // Act
    const sender = effectiveSenderOf(input({ settings, sender: { verified_domains: domains } }));

    // Assess
    expect(sender).toMatchObject(want);
    expect(sender.problems.length > 0).toBe(want.fromStatus === 'not_verified');
    expect(sender.fromAddress).not.toBe(SYSTEM);
  });

  it('reports a legacy From on its field, saying what to do', () => {
    // Act
    const sender = effectiveSenderOf(
      input({
        settings: { email_from_address: 'ceo@other-client.example' },
        sender: { verified_domains: ['acme.example'] },
      }),
    );

    // Assess
    expect(sender.problems).toEqual([
      {
        key: 'email_from_address',
        error: expect.stringMatching(/not at one of your verified domains \(acme\.example\).*POST \/client\/domains/),
      },
    ]);
  });

  it('names the tenant and its configuration set when the sender state has them, in the sandbox too', () => {
    // Act
    const sandboxed = effectiveSenderOf(
      input({ sender: { verified_domains: [], tenant: 'els-client-7', configuration_set: 'els-clients' } }),
    );
    const verified = effectiveSenderOf(
      input({ sender: { verified_domains: ['acme.example'], tenant: 'els-client-7' } }),
    );
    const none = effectiveSenderOf(input());

    // Assess
    expect(sandboxed).toMatchObject({ sandbox: true, tenant: 'els-client-7', configurationSet: 'els-clients' });
    expect(verified).toMatchObject({ sandbox: false, tenant: 'els-client-7' });
    expect(verified).not.toHaveProperty('configurationSet');
    expect(none).not.toHaveProperty('tenant');
  });
});

describe('fromAddressProblem', () => {
  it.each([
    ['hello@acme.example', ['acme.example'], undefined],
    ['hello@other.example', ['acme.example'], /not at one of your verified domains \(acme\.example\)/],
    ['hello@other.example', [], /\(none yet\); add other\.example under Domains/],
    [SYSTEM, ['acme.example'], /the service's own sender/],
    [ONBOARDING.toUpperCase(), [], /the service's own sender/],
    ['other@email-lifecycle.example', ['email-lifecycle.example'], /the service's own sender/],
  ])('%s with verified %j → %s', (address, domains, want) => {
    // Act
    const problem = fromAddressProblem(address, domains, [SYSTEM, ONBOARDING]);

    // Assess
    if (want === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(want);
  });
});

describe('isSandboxRecipient', () => {
  it.each([
    ['owner@acme.example', true],
    ['OWNER@Acme.Example', true],
    ['success@simulator.amazonses.com', true],
    ['bounce@SIMULATOR.amazonses.com', true],
    ['someone@simulator.amazonses.com.evil.example', false],
    ['customer@example.com', false],
  ])('%s → %s', (to, want) => {
    // Act / Assess
    expect(isSandboxRecipient(to, ['owner@acme.example', 'admin@acme.example'])).toBe(want);
  });
});
