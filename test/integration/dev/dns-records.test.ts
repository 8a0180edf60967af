import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { request } from '../support/api.js';

/** A name no other test publishes at. */
const fresh = (): string => `t-${randomUUID().slice(0, 8)}.dns.example`;

describe('the local DNS (/dev/dns-records, local runtime only)', () => {
  it('publishes records, answers them at their name (lower-cased, trailing dot dropped) and removes them', async () => {
    // Prepare
    const domain = fresh();
    const records = [
      { name: `_ELS-challenge.${domain.toUpperCase()}.`, type: 'TXT', value: 'els-domain-verification=AbC' },
      { name: `_els-challenge.${domain}`, type: 'TXT', value: 'second' },
      { name: `bounce.${domain}`, type: 'MX', value: 'Feedback-SMTP.us-east-1.amazonses.com.', priority: 10 },
      { name: `tok1._domainkey.${domain}`, type: 'CNAME', value: 'tok1.dkim.amazonses.com' },
    ];

    // Act
    const put = await request('PUT', '/dev/dns-records', { body: { records } });
    const again = await request('PUT', '/dev/dns-records', { body: { records: records.slice(0, 1) } });
    const challenge = await request('GET', `/dev/dns-records?name=_els-challenge.${domain}`);
    const bounce = await request('GET', `/dev/dns-records?name=BOUNCE.${domain}.`);

    // Assess
    expect(put.status).toBe(200);
    expect(put.body.data.records[0]).toEqual({
      name: `_els-challenge.${domain}`,
      type: 'TXT',
      value: 'els-domain-verification=AbC',
    });
    expect(again.status).toBe(200);
    expect(challenge.body.data).toEqual({
      records: [
        { name: `_els-challenge.${domain}`, type: 'TXT', value: 'els-domain-verification=AbC' },
        { name: `_els-challenge.${domain}`, type: 'TXT', value: 'second' },
      ],
    });
    expect(bounce.body.data).toEqual({
      records: [{ name: `bounce.${domain}`, type: 'MX', value: 'feedback-smtp.us-east-1.amazonses.com', priority: 10 }],
    });

    // Act: remove one TXT value and the MX
    const removed = await request('DELETE', '/dev/dns-records', { body: { records: [records[1], records[2]] } });
    const afterChallenge = await request('GET', `/dev/dns-records?name=_els-challenge.${domain}`);
    const afterBounce = await request('GET', `/dev/dns-records?name=bounce.${domain}`);

    // Assess
    expect(removed.status).toBe(200);
    expect(afterChallenge.body.data.records).toEqual([
      { name: `_els-challenge.${domain}`, type: 'TXT', value: 'els-domain-verification=AbC' },
    ]);
    expect(afterBounce.body.data.records).toEqual([]);
  });

  it("takes a domain's records exactly as its view lists them (priority null on TXT and CNAME, purpose and status ignored)", async () => {
    // Prepare: what GET /client/domains/{id} answers, piped on unchanged (the README's walk-through does this)
    const domain = fresh();
    const records = [
      {
        purpose: 'ownership',
        name: `_els-challenge.${domain}`,
        type: 'TXT',
        value: 'els-domain-verification=xyz',
        priority: null,
        required: true,
        status: 'pending',
      },
      {
        purpose: 'mail_from_mx',
        name: `bounce.${domain}`,
        type: 'MX',
        value: 'feedback-smtp.us-east-1.amazonses.com',
        priority: 10,
        required: false,
        status: 'pending',
      },
    ];

    // Act
    const put = await request('PUT', '/dev/dns-records', { body: { records } });
    const challenge = await request('GET', `/dev/dns-records?name=_els-challenge.${domain}`);

    // Assess
    expect(put.status).toBe(200);
    expect(challenge.body.data.records).toEqual([
      { name: `_els-challenge.${domain}`, type: 'TXT', value: 'els-domain-verification=xyz' },
    ]);
  });

  it('answers an empty list at a name nothing was published at', async () => {
    const res = await request('GET', `/dev/dns-records?name=${fresh()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ records: [] });
  });

  it.each([
    ['no records', { records: [] }],
    ['an unknown type', { records: [{ name: 'a.example', type: 'A', value: '127.0.0.1' }] }],
    ['a name that is no DNS name', { records: [{ name: 'a b.example', type: 'TXT', value: 'x' }] }],
    ['an empty value', { records: [{ name: 'a.example', type: 'TXT', value: '' }] }],
  ])('answers 422 for %s', async (_case, body) => {
    const res = await request('PUT', '/dev/dns-records', { body });
    expect(res.status).toBe(422);
  });
});
