import { verifyDomainLocally } from '../shared/adapters/local-ses/verify-locally.js';
import type { Container } from '../shared/composition/container.js';
import { domainSettingsOf } from '../shared/composition/domain-settings.js';
import { clock } from '../shared/composition/providers/clock.js';
import { dnsResolver } from '../shared/composition/providers/dns-resolver.js';
import { domainStore } from '../shared/composition/providers/domain-store.js';
import { ids } from '../shared/composition/providers/ids.js';
import { localDnsRecords } from '../shared/composition/providers/local-dns-records.js';
import { senderIdentities } from '../shared/composition/providers/sender-identities.js';
import type { DomainView } from '../shared/domain/domains/schemas.js';

/**
 * Verifies `domain` for a client on the local runtime, as a developer would by hand (claim, publish the records to
 * the local DNS, check): the demo client's domain and the test clients' are verified this way. The container must use
 * the local DNS and SES registry (SENDER_IDENTITIES=local, DNS_RESOLVER=local, as npm start sets them).
 */
export async function verifyLocalDomain(container: Container, clientId: number, domain: string): Promise<DomainView> {
  const { config } = container;
  if (config.SENDER_IDENTITIES !== 'local' || config.DNS_RESOLVER !== 'local') {
    throw new Error('a domain is verified locally only against the local DNS and SES registry');
  }
  const deps = container.resolve([domainStore, ids, clock, dnsResolver, senderIdentities, localDnsRecords]);
  return verifyDomainLocally({ ...deps, domainSettings: domainSettingsOf(config) }, clientId, domain);
}
