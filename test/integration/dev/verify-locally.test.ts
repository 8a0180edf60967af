import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { verifyDomainLocally } from '../../../shared/adapters/local-ses/verify-locally.js';
import { createContainer } from '../../../shared/composition/container.js';
import { domainSettingsOf } from '../../../shared/composition/domain-settings.js';
import { clock } from '../../../shared/composition/providers/clock.js';
import { dnsResolver } from '../../../shared/composition/providers/dns-resolver.js';
import { domainStore } from '../../../shared/composition/providers/domain-store.js';
import { ids } from '../../../shared/composition/providers/ids.js';
import { localDnsRecords } from '../../../shared/composition/providers/local-dns-records.js';
import { localSenderIdentities } from '../../../shared/composition/providers/local-sender-identities.js';
import { senderIdentities } from '../../../shared/composition/providers/sender-identities.js';
import { loadConfig } from '../../../shared/config.js';
import { request } from '../support/api.js';

/** The domain code and the local stand-ins on the shared runtime's DynamoDB Local, as the demo client uses them. */
function localDeps() {
  const container = createContainer({
    config: loadConfig({
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
    }),
  });
  const deps = container.resolve([domainStore, ids, clock, dnsResolver, senderIdentities, localDnsRecords]);
  return {
    deps: { ...deps, domainSettings: domainSettingsOf(deps.config) },
    registry: container.use(localSenderIdentities),
  };
}

const freshClientId = (): number => 800_000_000 + Math.floor(Math.random() * 99_999_999);
const freshDomain = (): string => `v-${randomUUID().slice(0, 8)}.verify.example`;

describe('verifyDomainLocally (claim, publish, check, publish, check on the local runtime)', () => {
  it('verifies a domain through the local DNS and SES registry, as a client doing it by hand would', async () => {
    // Prepare
    const { deps, registry } = localDeps();
    const clientId = freshClientId();
    const domain = freshDomain();

    // Act
    const view = await verifyDomainLocally(deps, clientId, domain);

    // Assess: the domain, its records as the local DNS now answers them, SES's identity in the client's tenant
    expect(view).toMatchObject({ domain, status: 'verified', failure_reason: null });
    expect(view.verified_at).not.toBeNull();
    const dkim = view.records.filter((r) => r.purpose === 'dkim');
    expect(dkim).toHaveLength(3);
    expect(dkim.every((r) => r.status === 'verified')).toBe(true);
    const published = await request('GET', `/dev/dns-records?name=${dkim[0]?.name}`);
    expect(published.body.data.records).toEqual([{ name: dkim[0]?.name, type: 'CNAME', value: dkim[0]?.value }]);
    const identity = await registry.getDomainIdentity(domain);
    expect(identity).toMatchObject({ verifiedForSending: true, dkimStatus: 'SUCCESS', mailFromStatus: 'SUCCESS' });
    await expect(registry.tenantStatus(`${deps.config.SES_TENANT_PREFIX}client-${clientId}`)).resolves.toEqual({
      status: 'ENABLED',
    });
  });

  it('refuses (409) a domain another client verified', async () => {
    // Prepare
    const { deps } = localDeps();
    const domain = freshDomain();
    await verifyDomainLocally(deps, freshClientId(), domain);

    // Act & Assess
    await expect(verifyDomainLocally(deps, freshClientId(), domain)).rejects.toMatchObject({ status: 409 });
  });
});
