import { describe, expect, it } from 'vitest';
import { claimDomain } from '../../../../shared/domain/domains/claim-domain.js';
import { pollDomains } from '../../../../shared/domain/domains/poll-domains.js';
import { MINUTE_MS, domainHarness } from './domain-harness.js';

describe('pollDomains', () => {
  it('checks every due claim across pages and waves; a failing check leaves its claim and stops no other', async () => {
    // Prepare
    const h = domainHarness();
    const claims = [];
    for (let i = 0; i < 7; i += 1) claims.push(await claimDomain(h.deps, 7, { domain: `d${i}.example` }));
    const notDue = await claimDomain({ ...h.deps, clock: { now: () => new Date('2026-11-28T10:30:00.000Z') } }, 7, {
      domain: 'later.example',
    });
    h.dns.failing.add('_els-challenge.d3.example');
    h.clock.advance(5 * MINUTE_MS);

    // Act
    const result = await pollDomains(h.deps, { pageSize: 3, waveSize: 2 });

    // Assess
    expect(result).toEqual({ checked: 6, errors: 1, stoppedOnBudget: false });
    const after = await h.domains.list(7);
    expect(after.filter((d) => d.checks === 1).map((d) => d.domain)).toEqual(
      ['d0', 'd1', 'd2', 'd4', 'd5', 'd6'].map((d) => `${d}.example`),
    );
    expect(after.find((d) => d.domain === 'd3.example')).toEqual(await h.domains.get(7, claims[3]?.id as number));
    expect(after.find((d) => d.domain === 'd3.example')?.checks).toBe(0);
    expect(after.find((d) => d.id === notDue.id)?.checks).toBe(0);
  });

  it('stops when its budget is spent; the next run goes on', async () => {
    // Prepare
    const h = domainHarness();
    for (let i = 0; i < 4; i += 1) await claimDomain(h.deps, 7, { domain: `d${i}.example` });
    h.clock.advance(5 * MINUTE_MS);
    let reads = 0;
    const slowClock = { now: () => new Date(h.clock.now().getTime() + 20_000 * reads++) };

    // Act
    const result = await pollDomains({ ...h.deps, clock: slowClock }, { waveSize: 1, budgetMs: 45_000 });

    // Assess
    expect(result.stoppedOnBudget).toBe(true);
    expect(result.checked).toBeLessThan(4);
  });
});
