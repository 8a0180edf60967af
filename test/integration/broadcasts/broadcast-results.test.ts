import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { describe, expect, inject, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import {
  deliveredAt,
  getSentEmail,
  injectSesEvent,
  later,
  SCANNER_UA,
  sesEvent,
  sesMailOf,
  snsEnvelope,
} from '../tracking/support.js';

/**
 * A broadcast's results over HTTP against the local runtime: its links clicked by a person (a browser) and by a
 * scanner through SES's click notifications, counted apart per link; its recipients filtered by status and exported
 * as CSV (parsed back); a conversion event inside the window counted once, one before the e-mail not at all; another
 * client's broadcast a 404 on each read.
 */
const PRICING = 'https://shop.example.com/pricing?utm_source=broadcast';
const DOCS = 'https://shop.example.com/docs';
const proSegment = {
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
};

/** A CSV answer as it comes (the envelope reader takes JSON only). */
async function download(path: string, key: string) {
  const response = await fetch(`${inject('baseUrl')}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

interface Recipient {
  contact_id: number;
  email: string | null;
  execution_id: number;
  sent_email_id: string | null;
  status: string;
  sent_at: string | null;
  human_opened: boolean;
  human_clicked: boolean;
  converted_at: string | null;
}

describe('broadcast results', () => {
  it('counts clicks per link by people and machines apart, lists and exports recipients by status, and counts a conversion once', async () => {
    // Prepare: three pro contacts, a broadcast to them counting purchases within a day of its e-mail, sent.
    const client = await createTestClient('scale');
    const key = client.api_key;
    const other = await createTestClient();
    const run = randomUUID().slice(0, 8);
    const addresses = ['a', 'b', 'c'].map((n) => `br-${n}-${run}@example.com`);
    const contactIds: number[] = [];
    for (const email of addresses) {
      const made = await call('POST', '/client/contacts', { key, body: { email, custom_fields: { plan: 'pro' } } });
      expect(made.status, made.text).toBe(201);
      contactIds.push(made.body.data.id as number);
    }
    const segment = await call('POST', '/client/segments', { key, body: { name: 'Pro', definition: proSegment } });
    const segmentId = segment.body.data?.id as number;
    await eventually('the segment ready with its 3 members', async () => {
      const read = await call('GET', `/client/segments/${segmentId}`, { key });
      const data = read.body.data as { status?: string; count?: number } | undefined;
      return data?.status === 'ready' && data.count === 3 ? true : undefined;
    });
    const beforeSend = new Date(Date.now() - 3_600_000).toISOString();
    const created = await call('POST', '/client/broadcasts', {
      key,
      body: {
        name: 'Results',
        definition: {
          audience: { segment_id: segmentId },
          category: 'marketing',
          variants: [{ template_id: 1 }],
          schedule: { mode: 'now' },
          conversion: { event: 'purchase', window_days: 1 },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as number;
    const scheduled = await call('POST', `/client/broadcasts/${id}/schedule`, { key, body: { draft_version: 1 } });
    expect(scheduled.status, scheduled.text).toBe(200);
    await eventually(
      'the broadcast sent to its 3 recipients',
      async () => {
        const read = await call('GET', `/client/broadcasts/${id}`, { key });
        return read.body.data?.status === 'sent' && read.body.data.totals.sent === 3 ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const all = await call('GET', `/client/broadcasts/${id}/recipients`, { key });
    expect(all.status, all.text).toBe(200);
    const byContact = new Map((all.body.data.recipients as Recipient[]).map((r) => [r.contact_id, r]));
    const [a, b, c] = contactIds.map((cid) => byContact.get(cid)!);
    // Each e-mail delivered (the local SES's Delivery), so its clicks come after its delivery.
    const emails = await Promise.all(
      [a, b, c].map((r) =>
        eventually(`recipient ${r!.contact_id}'s e-mail delivered`, async () => {
          const sentEmail = await getSentEmail(key, r!.sent_email_id!);
          return sentEmail.status >= 3 && sentEmail.provider_message_id ? sentEmail : undefined;
        }),
      ),
    );
    const tracked = emails.map((email) => ({ client, email, messageId: email.provider_message_id! }));

    // Act: A's reader clicks the pricing link twice and a scanner follows it once; a scanner follows B's docs link.
    const click = async (i: number, minutes: number, link: string, userAgent?: string) =>
      injectSesEvent(
        snsEnvelope(
          sesEvent.click(
            sesMailOf(tracked[i]!),
            later(deliveredAt(tracked[i]!.email), minutes * 60_000),
            link,
            userAgent ? { userAgent } : {},
          ),
        ),
      );
    await click(0, 10, PRICING);
    await click(0, 30, `${PRICING}#plans`);
    await click(0, 11, PRICING, SCANNER_UA);
    await click(1, 12, DOCS, SCANNER_UA);
    // C buys within the day (twice: counted once); B's purchase predates its e-mail; A does something else.
    const event = (email: string, type: string, ts?: string) =>
      call('POST', '/client/events?sync=true', { key, body: { type, email, ...(ts ? { ts } : {}) } });
    const purchases = [
      await event(addresses[2]!, 'purchase'),
      await event(addresses[2]!, 'purchase'),
      await event(addresses[1]!, 'purchase', beforeSend),
      await event(addresses[0]!, 'feature_used'),
    ];

    // Assess: the links, people and machines apart; the totals count each e-mail's first human click once.
    for (const p of purchases) expect(p.status, p.text).toBe(201);
    const detail = await eventually(
      'the clicks and the conversion counted',
      async () => {
        const read = await call('GET', `/client/broadcasts/${id}`, { key });
        const data = read.body.data;
        return data?.links_total === 2 && data.totals.machine_clicks === 2 && data.totals.conversions === 1
          ? data
          : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(detail.links).toEqual([
      { url: PRICING, human_clicks: 2, machine_clicks: 1 },
      { url: DOCS, human_clicks: 0, machine_clicks: 1 },
    ]);
    expect(detail.totals).toMatchObject({ sent: 3, human_clicks: 1, machine_clicks: 2, conversions: 1 });

    // Recipients by status: A clicked (by a person), B and C delivered (B's scanner click does not count).
    const clicked = await call('GET', `/client/broadcasts/${id}/recipients?status=clicked`, { key });
    expect(clicked.body.data.recipients).toEqual([
      expect.objectContaining({
        contact_id: a!.contact_id,
        email: addresses[0],
        status: 'clicked',
        human_clicked: true,
      }),
    ]);
    const delivered = await call('GET', `/client/broadcasts/${id}/recipients?status=delivered&per_page=1`, { key });
    expect(
      delivered.body.data.recipients,
      `${delivered.text} / all: ${(await call('GET', `/client/broadcasts/${id}/recipients`, { key })).text}`,
    ).toEqual([
      expect.objectContaining({
        contact_id: b!.contact_id,
        status: 'delivered',
        human_clicked: false,
        converted_at: null,
      }),
    ]);
    const next = await call(
      'GET',
      `/client/broadcasts/${id}/recipients?status=delivered&per_page=1&cursor=${encodeURIComponent(delivered.body.data.next_cursor)}`,
      { key },
    );
    expect(next.body.data.recipients).toEqual([
      expect.objectContaining({ contact_id: c!.contact_id, status: 'delivered', converted_at: expect.any(String) }),
    ]);
    const foreignCursor = await call(
      'GET',
      `/client/broadcasts/${id}/recipients?status=clicked&cursor=${encodeURIComponent(delivered.body.data.next_cursor)}`,
      { key },
    );
    expect(foreignCursor.status).toBe(422);

    // The CSV export, parsed back: a header and one row per recipient, as the list says them.
    const csv = await download(`/client/broadcasts/${id}/recipients/export`, key);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="broadcast-${id}-recipients.csv"`);
    expect(csv.headers.get('link')).toBeNull();
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [Number(r['contact_id']), r['email'], r['status'], r['human_clicked']])).toEqual([
      [a!.contact_id, addresses[0], 'clicked', 'true'],
      [b!.contact_id, addresses[1], 'delivered', 'false'],
      [c!.contact_id, addresses[2], 'delivered', 'false'],
    ]);
    expect(rows[2]!['converted_at']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(rows[1]!['converted_at']).toBe('');

    // Another client's broadcast: 404 on each read.
    for (const path of [`/client/broadcasts/${id}`, `/client/broadcasts/${id}/recipients`]) {
      const res = await call('GET', path, { key: other.api_key });
      expect(res.status, path).toBe(404);
    }
    const foreignCsv = await call('GET', `/client/broadcasts/${id}/recipients/export`, { key: other.api_key });
    expect(foreignCsv.status).toBe(404);
  }, 150_000);
});
