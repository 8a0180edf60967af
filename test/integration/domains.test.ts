import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECK_NOW_MIN_SECONDS } from '../../shared/public/domain-rules.js';
import { call, request } from './support/api.js';
import { createTestClient, type TestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { webhookReceiver } from './support/webhook-receiver.js';

/**
 * Sending domains over HTTP on the local runtime: its DNS is what a test publishes through PUT /dev/dns-records, its
 * SES registry verifies an identity once the DKIM CNAMEs are published there. A webhook receiver takes the domain
 * facts.
 */
const receiver = webhookReceiver();
const { received } = receiver;

interface DnsRecord {
  purpose: string;
  name: string;
  type: string;
  value: string;
  priority: number | null;
}

const fresh = (label: string): string => `${label}-${randomUUID().slice(0, 8)}.test.example`;

/** Publishes records to the local DNS, as a domain's owner would at its DNS host. */
async function publish(records: readonly DnsRecord[]): Promise<void> {
  const res = await request('PUT', '/dev/dns-records', {
    body: {
      records: records.map((r) => ({
        name: r.name,
        type: r.type,
        value: r.value,
        ...(r.priority === null ? {} : { priority: r.priority }),
      })),
    },
  });
  expect(res.status).toBe(200);
}

const claim = (client: TestClient, domain: string) =>
  call('POST', '/client/domains', { key: client.api_key, body: { domain } });
const verify = (client: TestClient, id: number) =>
  call('POST', `/client/domains/${id}/verify`, { key: client.api_key });
/** A "check now" sooner than CHECK_NOW_MIN_SECONDS after the last check answers the stored state: wait it out. */
const afterCheckGuard = () => new Promise((resolve) => setTimeout(resolve, CHECK_NOW_MIN_SECONDS * 1000 + 200));

async function subscribe(client: TestClient): Promise<string> {
  const path = `/domains-${randomUUID().slice(0, 8)}`;
  const hook = await call('POST', '/client/webhooks', {
    key: client.api_key,
    body: { url: `${receiver.base}${path}`, event_types: ['domain.verified', 'domain.failed'] },
  });
  expect(hook.status).toBe(201);
  return path;
}

describe('sending domains', () => {
  it('goes from a claim to verified through the ownership record, then DKIM, MAIL FROM and DMARC; a receiver hears of it', async () => {
    // Prepare
    const client = await createTestClient();
    const hookPath = await subscribe(client);
    const domain = fresh('flow');

    // Act
    const claimed = await claim(client, domain.toUpperCase());
    await publish(claimed.body.data.records);
    const proven = await verify(client, claimed.body.data.id);
    await publish(proven.body.data.records.filter((r: DnsRecord) => r.purpose !== 'ownership'));
    await afterCheckGuard();
    const verified = await verify(client, claimed.body.data.id);
    const delivery = await eventually(
      'a domain.verified delivery',
      // The client's own fixture domain, verified just before the endpoint existed, may be heard of too: the stream
      // reads endpoints when it delivers, not when the fact happened.
      async () =>
        received.find(
          (d) => d.path === hookPath && d.payload.type === 'domain.verified' && d.payload.data.domain.domain === domain,
        ),
      { timeoutMs: 20_000 },
    );
    const listed = await call('GET', '/client/domains', { key: client.api_key });

    // Assess
    expect(claimed.status).toBe(201);
    expect(claimed.body.data).toMatchObject({ domain, status: 'awaiting_proof' });
    expect(claimed.body.data.records.map((r: DnsRecord) => [r.purpose, r.type, r.name])).toEqual([
      ['ownership', 'TXT', `_els-challenge.${domain}`],
    ]);
    expect(proven.status).toBe(200);
    expect(proven.body.data.status).toBe('verifying');
    expect(proven.body.data.records.map((r: DnsRecord) => r.purpose)).toEqual([
      'ownership',
      'dkim',
      'dkim',
      'dkim',
      'mail_from_mx',
      'mail_from_spf',
      'dmarc',
    ]);
    expect(verified.body.data).toMatchObject({
      status: 'verified',
      failure_reason: null,
      next_check_at: null,
      dmarc: { policy: 'none', meets_bulk_sender_rules: true },
    });
    expect(delivery.payload.data).toEqual({
      domain: {
        id: claimed.body.data.id,
        domain,
        status: 'verified',
        failure_reason: null,
        verified_at: verified.body.data.verified_at,
      },
    });
    expect(listed.body.data.domains.map((d: { domain: string }) => d.domain)).toContain(domain);
    expect(listed.body.meta).toMatchObject({ max_domains: 10 });
  });

  it('refuses a domain another account verified with 409 unique that names nothing of that account', async () => {
    // Prepare
    const owner = await createTestClient();
    const squatter = await createTestClient();
    const owned = owner.domain as string;
    const ownerDomains = (await call('GET', '/client/domains', { key: owner.api_key })).body.data.domains;

    // Act
    const res = await claim(squatter, owned);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      {
        condition: 'unique',
        key: 'domain',
        error: `${owned} is verified by another account; if you control it, contact support`,
      },
    ]);
    // The exact text names the domain only: not the account's id, name or address.
    expect(res.text).not.toContain('Test client');
    expect(res.text).not.toContain('@test.example');
    expect(res.body.errors[0].error).not.toMatch(new RegExp(`\\b(${owner.id}|${ownerDomains[0].id})\\b`));
    expect((await call('GET', '/client/domains', { key: squatter.api_key })).body.data.domains).toHaveLength(1);
  });

  it('lets the first account to publish its own token hold the name; the other claim fails claimed_elsewhere', async () => {
    // Prepare
    const a = await createTestClient();
    const b = await createTestClient();
    const bHook = await subscribe(b);
    const domain = fresh('race');
    const aClaim = (await claim(a, domain)).body.data;
    const bClaim = (await claim(b, domain)).body.data;

    // Act
    await publish(aClaim.records);
    const aProven = await verify(a, aClaim.id);
    const bChecked = await verify(b, bClaim.id);
    const failed = await eventually(
      'a domain.failed delivery',
      async () => received.find((d) => d.path === bHook && d.payload.type === 'domain.failed'),
      { timeoutMs: 20_000 },
    );
    const bAgain = await claim(b, domain);

    // Assess
    expect(bClaim.status).toBe('awaiting_proof');
    expect(aProven.body.data.status).toBe('verifying');
    expect(bChecked.body.data).toMatchObject({ status: 'failed', failure_reason: 'claimed_elsewhere' });
    expect(failed.payload.data.domain).toMatchObject({
      id: bClaim.id,
      status: 'failed',
      failure_reason: 'claimed_elsewhere',
    });
    expect(bAgain.status).toBe(409);
    expect(bAgain.body.errors[0]).toMatchObject({ condition: 'unique', key: 'domain' });
  });

  it("proves nothing when an account publishes another claim's token under its own claim", async () => {
    // Prepare
    const a = await createTestClient();
    const b = await createTestClient();
    const domain = fresh('copied');
    const aClaim = (await claim(a, domain)).body.data;
    const bClaim = (await claim(b, domain)).body.data;

    // Act
    await publish(aClaim.records);
    const bChecked = await verify(b, bClaim.id);

    // Assess
    expect(aClaim.records[0].value).not.toBe(bClaim.records[0].value);
    expect(bChecked.body.data.status).toBe('awaiting_proof');
    expect(bChecked.body.data.proven_at).toBeNull();
  });

  it.each([
    ['email-lifecycle.example', 422, 'unsafe'],
    ['mail.email-lifecycle.example', 422, 'unsafe'],
    ['amazonses.com', 422, 'unsafe'],
    ['not a domain', 422, 'format'],
  ])('refuses %j with %i %s', async (domain, status, condition) => {
    // Prepare
    const client = await createTestClient();

    // Act
    const res = await claim(client, domain);

    // Assess
    expect(res.status).toBe(status);
    expect(res.body.errors[0]).toMatchObject({ condition, key: 'domain' });
  });

  it("answers 404 for another account's domain, to read, check or delete it", async () => {
    // Prepare
    const owner = await createTestClient();
    const other = await createTestClient();
    const owned = (await call('GET', '/client/domains', { key: owner.api_key })).body.data.domains[0];

    // Act
    const answers = await Promise.all([
      call('GET', `/client/domains/${owned.id}`, { key: other.api_key }),
      call('POST', `/client/domains/${owned.id}/verify`, { key: other.api_key }),
      call('DELETE', `/client/domains/${owned.id}`, { key: other.api_key }),
    ]);

    // Assess
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404]);
    expect((await call('GET', `/client/domains/${owned.id}`, { key: owner.api_key })).body.data.status).toBe(
      'verified',
    );
  });

  it('frees a deleted domain for another account', async () => {
    // Prepare
    const a = await createTestClient();
    const b = await createTestClient();
    const owned = (await call('GET', '/client/domains', { key: a.api_key })).body.data.domains[0];

    // Act
    const deleted = await call('DELETE', `/client/domains/${owned.id}`, { key: a.api_key });
    const reclaimed = await claim(b, owned.domain);

    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: owned.id, status: 'verified', warning: null });
    expect(reclaimed.status).toBe(201);
  });
});
