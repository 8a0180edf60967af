import { describe, expect, it } from 'vitest';
import { AppError, PermanentFailure } from '../../../../shared/errors.js';
import { claimDomain } from '../../../../shared/domain/domains/claim-domain.js';
import { backoffMinutes, checkDomain, checkDueDomain } from '../../../../shared/domain/domains/check-domain.js';
import type { DomainView } from '../../../../shared/domain/domains/schemas.js';
import { HOUR_MS, MINUTE_MS, domainHarness, type DomainHarness } from './domain-harness.js';

const A = 7;
const B = 8;
const D = 'acme.example';
const CHALLENGE = `_els-challenge.${D}`;

const ownershipValue = (view: DomainView): string => view.records[0]?.value as string;

/** A claim of client `client` with its ownership record published. */
async function provable(h: DomainHarness, client = A): Promise<DomainView> {
  const view = await claimDomain(h.deps, client, { domain: D });
  h.dns.publishTxt(CHALLENGE, ownershipValue(view));
  return view;
}

/** A claim proven (verifying, its identity created), the clock moved past the check-now guard. */
async function proven(h: DomainHarness, client = A): Promise<DomainView> {
  const claim = await provable(h, client);
  const view = await checkDomain(h.deps, client, claim.id);
  h.clock.advance(MINUTE_MS);
  return view;
}

const refusalOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, items: error.items };
    throw error;
  }
  return undefined;
};

describe('checkDomain: awaiting proof', () => {
  it('proves the claim on its token, takes the proof lock, then creates the tenant and the identity, in order', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await provable(h);

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(h.domains.proofs.get(D)).toEqual({ client_id: A, domain_id: claim.id });
    expect(h.ses.calls).toEqual([`ensureClientSending ${A}`, `createDomainIdentity ${D} els-client-${A} bounce.${D}`]);
    expect(view).toMatchObject({
      status: 'verifying',
      proven_at: '2026-11-28T10:00:00.000Z',
      proof_expires_at: null,
      last_checked_at: '2026-11-28T10:00:00.000Z',
      next_check_at: '2026-11-28T10:05:00.000Z',
    });
    expect(view.records.map((r) => [r.purpose, r.type, r.name, r.value, r.priority, r.required, r.status])).toEqual([
      ['ownership', 'TXT', CHALLENGE, ownershipValue(claim), null, true, 'not_applicable'],
      ['dkim', 'CNAME', `tok112._domainkey.${D}`, 'tok112.dkim.amazonses.com', null, true, 'pending'],
      ['dkim', 'CNAME', `tok212._domainkey.${D}`, 'tok212.dkim.amazonses.com', null, true, 'pending'],
      ['dkim', 'CNAME', `tok312._domainkey.${D}`, 'tok312.dkim.amazonses.com', null, true, 'pending'],
      ['mail_from_mx', 'MX', `bounce.${D}`, 'feedback-smtp.eu-west-1.amazonses.com', 10, false, 'pending'],
      ['mail_from_spf', 'TXT', `bounce.${D}`, 'v=spf1 include:amazonses.com ~all', null, false, 'pending'],
      ['dmarc', 'TXT', `_dmarc.${D}`, `v=DMARC1; p=none; rua=mailto:dmarc@${D}`, null, false, 'missing'],
    ]);
    expect(h.domains.senders.get(A)).toEqual({
      verified_domains: [],
      tenant: `els-client-${A}`,
      configuration_set: 'els-clients',
    });
  });

  it('stays awaiting proof while the token is not published, and asks nothing of SES', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });
    h.dns.publishTxt(CHALLENGE, 'els-domain-verification=someone-elses');

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view).toMatchObject({ status: 'awaiting_proof', next_check_at: '2026-11-28T10:10:00.000Z' });
    expect(h.ses.calls).toEqual([]);
  });

  it("proves nothing when a client publishes another claim's token under its own claim", async () => {
    // Prepare
    const h = domainHarness();
    const theirs = await claimDomain(h.deps, A, { domain: D });
    const mine = await claimDomain(h.deps, B, { domain: D });
    h.dns.publishTxt(CHALLENGE, ownershipValue(theirs));

    // Act
    const view = await checkDomain(h.deps, B, mine.id);

    // Assess
    expect(view.status).toBe('awaiting_proof');
    expect(h.domains.proofs.get(D)).toBeUndefined();
  });

  it('fails a claim whose name another client proved first: claimed_elsewhere, its name and place freed', async () => {
    // Prepare
    const h = domainHarness();
    const losing = await claimDomain(h.deps, B, { domain: D });
    const winning = await proven(h, A);

    // Act
    const view = await checkDomain(h.deps, B, losing.id);

    // Assess
    expect(view).toMatchObject({ status: 'failed', failure_reason: 'claimed_elsewhere', next_check_at: null });
    expect(h.domains.proofs.get(D)).toEqual({ client_id: A, domain_id: winning.id });
    expect(h.domains.held(B)).toBe(0);
    expect((await h.domains.get(B, losing.id))?.expires_at).toBe(Date.parse('2026-12-28T10:01:00.000Z') / 1000);
  });

  it('fails a claim that finds its token after another client took the lock: claimed_elsewhere', async () => {
    // Prepare
    const h = domainHarness();
    const losing = await claimDomain(h.deps, B, { domain: D });
    await proven(h, A);
    h.dns.publishTxt(CHALLENGE, ownershipValue(losing));

    // Act
    const view = await checkDomain(h.deps, B, losing.id);

    // Assess
    expect(view).toMatchObject({ status: 'failed', failure_reason: 'claimed_elsewhere' });
    expect(h.ses.calls.filter((c) => c.includes(`${B}`))).toEqual([]);
  });

  it(`fails challenge_not_found once ${72} h passed without the token; it then expires and holds nothing`, async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });
    h.clock.advance(72 * HOUR_MS);
    const inTime = await checkDomain(h.deps, A, claim.id);
    h.clock.advance(1000 * 11);

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(inTime.status).toBe('awaiting_proof');
    expect(view).toMatchObject({ status: 'failed', failure_reason: 'challenge_not_found', next_check_at: null });
    expect(view.records[0]?.status).toBe('missing');
    expect((await h.domains.get(A, claim.id))?.expires_at).toBe(
      Math.floor(Date.parse('2026-12-31T10:00:11.000Z') / 1000),
    );
    expect((await claimDomain(h.deps, A, { domain: D })).status).toBe('awaiting_proof');
  });

  it('leaves the claim as it was when DNS fails (an outage never fails or expires a claim)', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });
    h.clock.advance(80 * HOUR_MS);
    h.dns.failing.add(CHALLENGE);
    const before = await h.domains.get(A, claim.id);

    // Act
    const outcome = checkDomain(h.deps, A, claim.id);

    // Assess
    await expect(outcome).rejects.toThrow(/ESERVFAIL/);
    expect(await h.domains.get(A, claim.id)).toEqual(before);
  });
});

describe('checkDomain: verifying', () => {
  it('marks the claim verified when SES verified it: SENDER lists the domain, the poller no longer sees it', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await proven(h);
    h.ses.verify(D);
    h.dns.publishTxt(`_dmarc.${D}`, 'v=DMARC1; p=quarantine; rua=mailto:d@acme.example');

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view).toMatchObject({
      status: 'verified',
      verified_at: '2026-11-28T10:01:00.000Z',
      next_check_at: null,
      dmarc: {
        record: 'v=DMARC1; p=quarantine; rua=mailto:d@acme.example',
        policy: 'quarantine',
        meets_bulk_sender_rules: true,
      },
    });
    expect(view.records.filter((r) => r.purpose !== 'ownership').map((r) => r.status)).toEqual([
      'verified',
      'verified',
      'verified',
      'verified',
      'verified',
      'found',
    ]);
    expect(h.domains.senders.get(A)?.verified_domains).toEqual([D]);
    expect((await h.domains.dueChecks('2027-01-01T00:00:00.000Z', 10)).due).toEqual([]);
  });

  it('stays verifying while SES looks for the DKIM records', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await proven(h);

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view).toMatchObject({ status: 'verifying', next_check_at: '2026-11-28T10:11:00.000Z' });
    expect(h.ses.calls.at(-1)).toBe(`getDomainIdentity ${D}`);
  });

  it('shows each record the last check saw in DNS as found, one whose lookup failed as it was', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await proven(h);
    h.dns.cnameRecords.set(`tok112._domainkey.${D}`, ['tok112.dkim.amazonses.com']);
    h.dns.cnameRecords.set(`tok212._domainkey.${D}`, ['someone-else.example']);
    h.dns.mxRecords.set(`bounce.${D}`, [{ exchange: 'feedback-smtp.eu-west-1.amazonses.com', priority: 10 }]);
    h.dns.publishTxt(`bounce.${D}`, 'v=spf1 include:amazonses.com -all');
    await checkDomain(h.deps, A, claim.id);
    h.clock.advance(MINUTE_MS);
    h.dns.failing.add(`tok112._domainkey.${D}`);

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view.status).toBe('verifying');
    expect(view.records.filter((r) => r.purpose !== 'ownership').map((r) => [r.name, r.status])).toEqual([
      [`tok112._domainkey.${D}`, 'found'],
      [`tok212._domainkey.${D}`, 'pending'],
      [`tok312._domainkey.${D}`, 'pending'],
      [`bounce.${D}`, 'found'],
      [`bounce.${D}`, 'found'],
      [`_dmarc.${D}`, 'missing'],
    ]);
  });

  it.each([
    ['SES gave up on DKIM', 'FAILED', 1],
    [`${72} h passed since the identity`, 'PENDING', 72 * 60 + 1],
  ] as const)('fails dkim_not_found when %s; the proof lock stays until deleted', async (_, dkimStatus, minutes) => {
    // Prepare
    const h = domainHarness();
    const claim = await proven(h);
    Object.assign(h.ses.identities.get(D) ?? {}, { dkimStatus });
    h.clock.advance(minutes * MINUTE_MS);

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view).toMatchObject({ status: 'failed', failure_reason: 'dkim_not_found', next_check_at: null });
    expect(h.domains.proofs.get(D)).toEqual({ client_id: A, domain_id: claim.id });
    expect(h.domains.held(A)).toBe(1);
  });

  it('stays verifying without an identity when SES fails, and creates it at the next check', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await provable(h);
    h.ses.failNext.set('createDomainIdentity', new Error('TooManyRequestsException'));
    await expect(checkDomain(h.deps, A, claim.id)).rejects.toThrow('TooManyRequestsException');
    const between = await h.domains.get(A, claim.id);
    h.clock.advance(MINUTE_MS);

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(between).toMatchObject({ status: 'verifying', next_check_at: '2026-11-28T10:05:00.000Z' });
    expect(between?.identity_created_at).toBeUndefined();
    expect(view.records.filter((r) => r.purpose === 'dkim')).toHaveLength(3);
    expect((await h.domains.get(A, claim.id))?.identity_created_at).toBe('2026-11-28T10:01:00.000Z');
  });

  it('fails identity_refused when SES refuses the domain for good', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await provable(h);
    h.ses.failNext.set('createDomainIdentity', new PermanentFailure('identity_refused', 'BadRequestException'));

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view).toMatchObject({ status: 'failed', failure_reason: 'identity_refused' });
  });
});

describe('checkDomain: the route rules', () => {
  it('answers the stored state without a check when the claim was checked less than 10 s ago', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });
    await checkDomain(h.deps, A, claim.id);
    h.clock.advance(9_000);
    h.dns.lookups.length = 0;

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view.last_checked_at).toBe('2026-11-28T10:00:00.000Z');
    expect(h.dns.lookups).toEqual([]);
  });

  it('checks again at once when told not to answer a recent check as stored (a fixture publishing its own records)', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });
    await checkDomain(h.deps, A, claim.id);
    h.clock.advance(1_000);
    h.dns.lookups.length = 0;

    // Act
    const view = await checkDomain(h.deps, A, claim.id, { answerRecentAsStored: false });

    // Assess
    expect(view.last_checked_at).toBe('2026-11-28T10:00:01.000Z');
    expect(h.dns.lookups).not.toEqual([]);
  });

  it("answers 404 for another client's claim", async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });

    // Act
    const refusal = await refusalOf(() => checkDomain(h.deps, B, claim.id));

    // Assess
    expect(refusal).toMatchObject({ status: 404, items: [{ condition: 'not_found', key: 'id' }] });
  });

  it('answers 409 `state` for a failed claim', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });
    h.clock.advance(73 * HOUR_MS);
    await checkDomain(h.deps, A, claim.id);
    h.clock.advance(MINUTE_MS);

    // Act
    const refusal = await refusalOf(() => checkDomain(h.deps, A, claim.id));

    // Assess
    expect(refusal).toMatchObject({ status: 409, items: [{ condition: 'state', key: 'id' }] });
  });

  it('refreshes a verified claim (DMARC read again) without changing its status', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await proven(h);
    h.ses.verify(D);
    await checkDomain(h.deps, A, claim.id);
    h.clock.advance(MINUTE_MS);
    h.dns.publishTxt(`_dmarc.${D}`, 'v=DMARC1; p=reject');

    // Act
    const view = await checkDomain(h.deps, A, claim.id);

    // Assess
    expect(view).toMatchObject({ status: 'verified', dmarc: { policy: 'reject' } });
  });
});

describe('the poller', () => {
  it.each([
    [0, 5],
    [1, 10],
    [2, 20],
    [3, 40],
    [4, 60],
    [5, 60],
    [50, 60],
  ])('after %i checks waits %i minutes', (checks, minutes) => {
    expect(backoffMinutes(checks)).toBe(minutes);
  });

  it('moves a claim along its backoff at each due check', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });
    const nextChecks: (string | undefined)[] = [];

    // Act
    for (let i = 0; i < 6; i += 1) {
      const due = await h.domains.get(A, claim.id);
      h.clock.advance(Date.parse(due?.next_check_at as string) - h.clock.now().getTime());
      nextChecks.push((await checkDueDomain(h.deps, { client_id: A, domain_id: claim.id }))?.next_check_at);
    }

    // Assess
    expect(nextChecks).toEqual([
      '2026-11-28T10:15:00.000Z',
      '2026-11-28T10:35:00.000Z',
      '2026-11-28T11:15:00.000Z',
      '2026-11-28T12:15:00.000Z',
      '2026-11-28T13:15:00.000Z',
      '2026-11-28T14:15:00.000Z',
    ]);
  });

  it('leaves a claim alone before its next check is due, and a settled one always', async () => {
    // Prepare
    const h = domainHarness();
    const claim = await claimDomain(h.deps, A, { domain: D });

    // Act
    const early = await checkDueDomain(h.deps, { client_id: A, domain_id: claim.id });

    // Assess
    expect(early?.checks).toBe(0);
    expect(h.dns.lookups).toEqual([]);
  });
});
