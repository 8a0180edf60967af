import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import { claimDomain } from '../../../../shared/domain/domains/claim-domain.js';
import { checkDomain } from '../../../../shared/domain/domains/check-domain.js';
import { MAX_DOMAINS } from '../../../../shared/public/domain-rules.js';
import { domainHarness } from './domain-harness.js';

const A = 7;
const B = 8;

const refusalOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, items: error.items };
    throw error;
  }
  return undefined;
};

describe('claimDomain', () => {
  it('answers the claim awaiting proof with only its ownership record, asking nothing of DNS or SES', async () => {
    // Prepare
    const h = domainHarness();

    // Act
    const view = await claimDomain(h.deps, A, { domain: 'Acme.Example.' });

    // Assess
    expect(view).toMatchObject({
      id: 1,
      domain: 'acme.example',
      status: 'awaiting_proof',
      failure_reason: null,
      proven_at: null,
      verified_at: null,
      proof_expires_at: '2026-12-01T10:00:00.000Z',
      next_check_at: '2026-11-28T10:05:00.000Z',
      mail_from_domain: 'bounce.acme.example',
      dmarc: { record: null, policy: null, meets_bulk_sender_rules: false },
    });
    expect(view.records).toEqual([
      {
        purpose: 'ownership',
        name: '_els-challenge.acme.example',
        type: 'TXT',
        value: expect.stringMatching(/^els-domain-verification=[A-Za-z0-9_-]{22}$/),
        priority: null,
        required: true,
        status: 'pending',
      },
    ]);
    expect(h.dns.lookups).toEqual([]);
    expect(h.ses.calls).toEqual([]);
  });

  it('gives each claim its own token', async () => {
    // Prepare
    const h = domainHarness();

    // Act
    const a = await claimDomain(h.deps, A, { domain: 'shared.example' });
    const b = await claimDomain(h.deps, B, { domain: 'shared.example' });

    // Assess
    expect(a.records[0]?.value).not.toBe(b.records[0]?.value);
  });

  it("refuses the client's own second claim of a name with 409 `unique` naming its id; nothing written", async () => {
    // Prepare
    const h = domainHarness();
    await claimDomain(h.deps, A, { domain: 'acme.example' });

    // Act
    const refusal = await refusalOf(() => claimDomain(h.deps, A, { domain: 'ACME.example' }));

    // Assess
    expect(refusal).toEqual({
      status: 409,
      items: [{ condition: 'unique', key: 'domain', error: 'You already added acme.example (id 1)' }],
    });
    expect(await h.domains.list(A)).toHaveLength(1);
  });

  it('refuses a name another client proved with 409 `unique` naming neither that client nor any id', async () => {
    // Prepare
    const h = domainHarness();
    const theirs = await claimDomain(h.deps, A, { domain: 'acme.example' });
    h.dns.publishTxt('_els-challenge.acme.example', theirs.records[0]?.value as string);
    await checkDomain(h.deps, A, theirs.id);

    // Act
    const refusal = await refusalOf(() => claimDomain(h.deps, B, { domain: 'acme.example' }));

    // Assess
    expect(refusal).toEqual({
      status: 409,
      items: [
        {
          condition: 'unique',
          key: 'domain',
          error: 'acme.example is verified by another account; if you control it, contact support',
        },
      ],
    });
    expect(refusal?.items[0]?.error).not.toMatch(new RegExp(`\\b(${A}|${theirs.id})\\b`));
    expect(await h.domains.list(B)).toEqual([]);
  });

  it("does not let another client's unproven claim block anyone", async () => {
    // Prepare
    const h = domainHarness();
    await claimDomain(h.deps, A, { domain: 'acme.example' });

    // Act
    const view = await claimDomain(h.deps, B, { domain: 'acme.example' });

    // Assess
    expect(view.status).toBe('awaiting_proof');
  });

  it(`refuses a claim over ${MAX_DOMAINS} with 409 \`max\`; nothing written`, async () => {
    // Prepare
    const h = domainHarness();
    for (let i = 0; i < MAX_DOMAINS; i += 1) await claimDomain(h.deps, A, { domain: `d${i}.example` });

    // Act
    const refusal = await refusalOf(() => claimDomain(h.deps, A, { domain: 'one-more.example' }));

    // Assess
    expect(refusal).toMatchObject({ status: 409, items: [{ condition: 'max', key: 'domain' }] });
    expect(await h.domains.list(A)).toHaveLength(MAX_DOMAINS);
  });

  it.each([
    ['email-lifecycle.example', 422, 'unsafe'],
    ['x.sandbox.email-lifecycle.example', 422, 'unsafe'],
    ['amazonses.com', 422, 'unsafe'],
    ['1.2.3.4', 422, 'format'],
  ])('refuses %j with %i `%s`; nothing written', async (domain, status, condition) => {
    // Prepare
    const h = domainHarness();

    // Act
    const refusal = await refusalOf(() => claimDomain(h.deps, A, { domain }));

    // Assess
    expect(refusal).toMatchObject({ status, items: [{ condition, key: 'domain' }] });
    expect(await h.domains.list(A)).toEqual([]);
  });
});
