import { FixedClock, MemoryIds } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryDomainStore } from '../../../../shared/adapters/memory/domain-store.js';
import type { DomainSettings } from '../../../../shared/domain/domains/domain-view.js';
import { FakeDns } from '../../support/fake-dns.js';
import { FakeSenderIdentities } from '../../support/fake-sender-identities.js';

export const SETTINGS: DomainSettings = {
  region: 'eu-west-1',
  reservedDomains: ['email-lifecycle.example', 'sandbox.email-lifecycle.example', 'amazonses.com'],
};

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

/** Memory domain store, fake DNS and SES, a fixed clock: every port a domain's claim and checks use. */
export function domainHarness() {
  const domains = new MemoryDomainStore();
  const dnsResolver = new FakeDns();
  const senderIdentities = new FakeSenderIdentities();
  const clock = new FixedClock(new Date('2026-11-28T10:00:00.000Z'));
  const deps = { domains, dnsResolver, senderIdentities, clock, ids: new MemoryIds(), domainSettings: SETTINGS };
  return { deps, domains, dns: dnsResolver, ses: senderIdentities, clock };
}
export type DomainHarness = ReturnType<typeof domainHarness>;
