import { describe, expect, it } from 'vitest';
import { MemorySettingsStore } from '../../../../shared/adapters/memory/settings-store.js';
import { memoryClientAdapters } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryDomainStore } from '../../../../shared/adapters/memory/domain-store.js';
import { AppError } from '../../../../shared/errors.js';
import { claimDomain } from '../../../../shared/domain/domains/claim-domain.js';
import { checkDomain } from '../../../../shared/domain/domains/check-domain.js';
import { deleteDomain } from '../../../../shared/domain/domains/delete-domain.js';
import { MINUTE_MS, domainHarness } from './domain-harness.js';

const A = 7;
const B = 8;
const D = 'acme.example';

function harness() {
  const h = domainHarness();
  const settings = new MemorySettingsStore(memoryClientAdapters().clients);
  const domains = new MemoryDomainStore(settings.senders);
  const deps = { ...h.deps, domains, settings };
  return { ...h, domains, settings, deps };
}

async function verified(h: ReturnType<typeof harness>, client = A) {
  const claim = await claimDomain(h.deps, client, { domain: D });
  h.dns.publishTxt(`_els-challenge.${D}`, claim.records[0]?.value as string);
  await checkDomain(h.deps, client, claim.id);
  h.ses.verify(D);
  h.clock.advance(MINUTE_MS);
  await checkDomain(h.deps, client, claim.id);
  return claim;
}

describe('deleteDomain', () => {
  it('deletes the SES identity first, then frees the name for anyone and drops it from the verified domains', async () => {
    // Prepare
    const h = harness();
    const claim = await verified(h);
    h.ses.calls.length = 0;

    // Act
    const deleted = await deleteDomain(h.deps, A, claim.id);

    // Assess
    expect(deleted).toMatchObject({ id: claim.id, domain: D, status: 'verified', warning: null });
    expect(h.ses.calls).toEqual([`deleteDomainIdentity ${D}`]);
    expect(h.settings.senders.get(A)?.verified_domains).toEqual([]);
    expect(await h.domains.list(A)).toEqual([]);
    expect((await claimDomain(h.deps, B, { domain: D })).status).toBe('awaiting_proof');
  });

  it("warns when the settings' From was at the domain", async () => {
    // Prepare
    const h = harness();
    const claim = await verified(h);
    await h.settings.save(
      { client_id: A, email_from_address: `hello@${D}`, version: 1 } as Parameters<typeof h.settings.save>[0],
      undefined,
    );

    // Act
    const deleted = await deleteDomain(h.deps, A, claim.id);

    // Assess
    expect(deleted.warning).toContain(`hello@${D}`);
  });

  it('asks nothing of SES for an unproven claim', async () => {
    // Prepare
    const h = harness();
    const claim = await claimDomain(h.deps, A, { domain: D });

    // Act
    await deleteDomain(h.deps, A, claim.id);

    // Assess
    expect(h.ses.calls).toEqual([]);
    expect(h.domains.held(A)).toBe(0);
  });

  it("answers 404 for another client's claim, and deletes nothing", async () => {
    // Prepare
    const h = harness();
    const claim = await verified(h);

    // Act
    const outcome = deleteDomain(h.deps, B, claim.id);

    // Assess
    await expect(outcome).rejects.toBeInstanceOf(AppError);
    await expect(outcome).rejects.toMatchObject({ status: 404 });
    expect(await h.domains.list(A)).toHaveLength(1);
    expect(h.ses.calls).not.toContain(`deleteDomainIdentity ${D}`);
  });
});
