import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LocalSenderIdentities,
  randomDkimToken,
} from '../../../../shared/adapters/local-ses/local-sender-identities.js';
import type { DnsResolver } from '../../../../shared/domain/domains/dns-resolver.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
afterEach(() => dbMock.reset());

const TABLE = 'tbl';
const CREATED = '2026-11-28T10:00:00.000Z';
const HOUR = 3_600_000;
const options = {
  tenantPrefix: 'els-',
  configurationSet: 'email-lifecycle-clients',
  onboardingIdentity: 'onboarding.email-lifecycle.example',
  region: 'us-east-1',
};
const TOKENS = ['aaaa', 'bbbb', 'cccc'];

/** A DNS of CNAME and MX answers by name. */
function dnsOf(cnames: Record<string, string[]>, mx: Record<string, { exchange: string; priority: number }[]> = {}) {
  return {
    txt: async () => [],
    cname: async (name: string) => cnames[name] ?? [],
    mx: async (name: string) => mx[name] ?? [],
  } satisfies DnsResolver;
}
const allDkim = Object.fromEntries(TOKENS.map((t) => [`${t}._domainkey.acme.example`, [`${t}.dkim.amazonses.com`]]));
const feedbackMx = { 'bounce.acme.example': [{ exchange: 'feedback-smtp.us-east-1.amazonses.com', priority: 10 }] };

function registry(dns: DnsResolver, hoursAfterCreation: number): LocalSenderIdentities {
  const now = new Date(Date.parse(CREATED) + hoursAfterCreation * HOUR);
  let n = 0;
  return new LocalSenderIdentities(db, TABLE, dns, { now: () => now }, options, () => TOKENS[n++ % 3] as string);
}

const identityItem = (extra: Record<string, unknown> = {}) => ({
  pk: 'DEVSES#IDENTITY#acme.example',
  sk: 'IDENTITY',
  dkim_tokens: TOKENS,
  mail_from_domain: 'bounce.acme.example',
  tenant: 'els-client-7',
  created_at: CREATED,
  ...extra,
});

describe('LocalSenderIdentities', () => {
  it('makes three 32-character base32 DKIM tokens, each different', () => {
    const tokens = [randomDkimToken(), randomDkimToken(), randomDkimToken()];
    for (const token of tokens) expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(new Set(tokens).size).toBe(3);
  });

  it("records the client's tenant with its own set (named as the tenant) and the onboarding identity, ENABLED unless paused", async () => {
    // Prepare
    dbMock.on(UpdateCommand).resolves({});

    // Act
    const sending = await registry(dnsOf({}), 0).ensureClientSending(7);

    // Assess
    expect(sending).toEqual({ tenant: 'els-client-7', configurationSet: 'els-client-7' });
    expect(dbMock.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'DEVSES#TENANT#els-client-7', sk: 'TENANT' },
      UpdateExpression:
        'SET tenant = :tenant, sending_status = if_not_exists(sending_status, :enabled), ' +
        'created_at = if_not_exists(created_at, :now) ADD resources :resources',
      ExpressionAttributeValues: {
        ':tenant': 'els-client-7',
        ':enabled': 'ENABLED',
        ':now': CREATED,
        ':resources': new Set(['configuration-set/els-client-7', 'identity/onboarding.email-lifecycle.example']),
      },
    });
  });

  it('creates an identity keeping the tokens of one that exists, and moves it to the tenant', async () => {
    // Prepare: the item already held other tokens (SES's AlreadyExists keeps them)
    dbMock.on(UpdateCommand).resolves({ Attributes: identityItem({ dkim_tokens: ['old1', 'old2', 'old3'] }) });

    // Act
    const out = await registry(dnsOf({}), 0).createDomainIdentity('acme.example', {
      tenant: 'els-client-7',
      mailFromDomain: 'bounce.acme.example',
    });

    // Assess
    expect(out).toEqual({ dkimTokens: ['old1', 'old2', 'old3'] });
    const input = dbMock.commandCalls(UpdateCommand)[0]?.args[0].input;
    expect(input?.Key).toEqual({ pk: 'DEVSES#IDENTITY#acme.example', sk: 'IDENTITY' });
    expect(input?.UpdateExpression).toContain('dkim_tokens = if_not_exists(dkim_tokens, :tokens)');
    expect(input?.UpdateExpression).toContain('tenant = :tenant');
    expect(input?.ExpressionAttributeValues).toMatchObject({ ':tokens': TOKENS, ':tenant': 'els-client-7' });
  });

  it('answers undefined for a domain it holds no identity of', async () => {
    dbMock.on(GetCommand).resolves({});
    await expect(registry(dnsOf({}), 0).getDomainIdentity('acme.example')).resolves.toBeUndefined();
  });

  it.each([
    ['all three CNAMEs and the MX published', allDkim, feedbackMx, 1, 'SUCCESS', 'SUCCESS', true],
    [
      'two of three CNAMEs, within the window',
      { ...allDkim, 'cccc._domainkey.acme.example': [] },
      {},
      71,
      'PENDING',
      'PENDING',
      false,
    ],
    [
      'a CNAME to the wrong target',
      { ...allDkim, 'aaaa._domainkey.acme.example': ['x.example'] },
      feedbackMx,
      1,
      'PENDING',
      'SUCCESS',
      false,
    ],
    ['nothing, past the 72 h window', {}, {}, 73, 'FAILED', 'FAILED', false],
    [
      'DKIM but an MX at another endpoint',
      allDkim,
      { 'bounce.acme.example': [{ exchange: 'mx.other.example', priority: 10 }] },
      1,
      'SUCCESS',
      'PENDING',
      true,
    ],
  ])('reads DNS as SES does: %s', async (_case, cnames, mx, hours, dkim, mailFrom, verified) => {
    // Prepare
    dbMock.on(GetCommand).resolves({ Item: identityItem() });
    dbMock.on(UpdateCommand).resolves({});

    // Act
    const status = await registry(dnsOf(cnames, mx), hours).getDomainIdentity('acme.example');

    // Assess
    expect(status).toEqual({
      verifiedForSending: verified,
      dkimStatus: dkim,
      dkimTokens: TOKENS,
      mailFromDomain: 'bounce.acme.example',
      mailFromStatus: mailFrom,
    });
  });

  it('remembers the first DKIM success, and a later lapse keeps sending as a TEMPORARY_FAILURE', async () => {
    // Prepare
    dbMock
      .on(GetCommand)
      .resolvesOnce({ Item: identityItem() })
      .resolves({ Item: identityItem({ dkim_verified_at: CREATED }) });
    dbMock.on(UpdateCommand).resolves({});

    // Act
    const first = await registry(dnsOf(allDkim), 1).getDomainIdentity('acme.example');
    const later = await registry(dnsOf({}), 200).getDomainIdentity('acme.example');

    // Assess
    expect(first?.dkimStatus).toBe('SUCCESS');
    expect(dbMock.commandCalls(UpdateCommand)[0]?.args[0].input).toMatchObject({
      Key: { pk: 'DEVSES#IDENTITY#acme.example', sk: 'IDENTITY' },
      UpdateExpression: 'SET dkim_verified_at = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(dkim_verified_at)',
    });
    expect(later).toMatchObject({ dkimStatus: 'TEMPORARY_FAILURE', verifiedForSending: true });
  });

  it("answers a tenant's status, a paused one with its cause; an unknown tenant as SES's NotFoundException", async () => {
    // Prepare
    dbMock
      .on(GetCommand, { Key: { pk: 'DEVSES#TENANT#els-client-7', sk: 'TENANT' } })
      .resolves({ Item: { sending_status: 'DISABLED', cause: 'bounce rate 12%' } })
      .on(GetCommand, { Key: { pk: 'DEVSES#TENANT#els-client-8', sk: 'TENANT' } })
      .resolves({ Item: { sending_status: 'ENABLED' } })
      .on(GetCommand, { Key: { pk: 'DEVSES#TENANT#els-client-9', sk: 'TENANT' } })
      .resolves({});
    const identities = registry(dnsOf({}), 0);

    // Act & Assess
    await expect(identities.tenantStatus('els-client-7')).resolves.toEqual({
      status: 'DISABLED',
      cause: 'bounce rate 12%',
    });
    await expect(identities.tenantStatus('els-client-8')).resolves.toEqual({ status: 'ENABLED' });
    await expect(identities.tenantStatus('els-client-9')).rejects.toMatchObject({ name: 'NotFoundException' });
    await expect(identities.findTenantStatus('els-client-9')).resolves.toBeUndefined();
  });
});
