import { describe, expect, it } from 'vitest';
import { request } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import {
  deliveredAt,
  deliveredWelcome,
  injectAndAwait,
  later,
  MINUTE_MS,
  SCANNER_UA,
  sesEvent,
  sesMailOf,
} from './support.js';

const LINK = 'https://example.com/pricing?utm_source=welcome';
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** Yesterday to tomorrow (UTC): the facts of the test land on today, whatever the clock does around midnight. */
const RANGE = () => `from=${dayOffset(-1)}&to=${dayOffset(1)}`;

describe('GET /client/stats and /client/workflows/{id}/stats', () => {
  it('counts the welcome e-mail sent and delivered, its human open and click once, and machine opens apart', async () => {
    // Prepare: signup → welcome sent and delivered; a person opens twice and clicks; a scanner and Apple's proxy open.
    const t = await deliveredWelcome();
    const key = t.client.api_key;
    const mail = sesMailOf(t);
    const at = (minutes: number) => later(deliveredAt(t.email), minutes * MINUTE_MS);
    await injectAndAwait(t, sesEvent.open(mail, at(5), { userAgent: SCANNER_UA, ipAddress: '198.51.100.9' }), at(5));
    await injectAndAwait(t, sesEvent.open(mail, at(6), { userAgent: 'Mozilla/5.0', ipAddress: '17.58.101.1' }), at(6));
    await injectAndAwait(t, sesEvent.open(mail, at(30)), at(30));
    await injectAndAwait(t, sesEvent.open(mail, at(31)), at(31));
    await injectAndAwait(t, sesEvent.click(mail, at(32), LINK), at(32));

    // Act: the day counters follow the facts through the change stream, so read once the last of them shows.
    const stats = await eventually('every fact counted', async () => {
      const res = await request('GET', `/client/stats?${RANGE()}`, { key });
      const totals = res.body.data?.totals;
      return totals?.clicked === 1 && totals?.bot_opened === 2 && totals?.executions === 2 ? res : undefined;
    });
    const workflow = await request('GET', `/client/workflows/1/stats?${RANGE()}`, { key });

    // Assess: one signup, two executions (welcome now, onboarding tips tomorrow), one e-mail so far.
    expect(stats.status).toBe(200);
    expect(stats.body.data.totals).toMatchObject({
      executions: 2,
      sent: 1,
      delivered: 1,
      opened: 1,
      clicked: 1,
      bot_opened: 2,
      bot_clicked: 0,
      bounced_hard: 0,
      complained: 0,
    });
    expect(stats.body.data.events).toEqual({ signup: 1 });
    expect(stats.body.data.rates).toMatchObject({
      delivery_rate: 1,
      open_rate: 1,
      click_rate: 1,
      click_to_open_rate: 1,
      bot_open_share: 0.6667,
    });
    expect(stats.body.data.series).toHaveLength(3);
    expect(stats.headers['ratelimit-policy']).toBeDefined();
    expect(workflow.status).toBe(200);
    expect(workflow.body.data.funnel).toEqual([
      { step: 'triggered', count: 1 },
      { step: 'sent', count: 1 },
      { step: 'delivered', count: 1 },
      { step: 'opened', count: 1 },
      { step: 'clicked', count: 1 },
    ]);
    expect(workflow.body.data.events).toEqual({});
  });

  it('counts a skip by its reason on the workflow’s row', async () => {
    // Prepare: an unsubscribed contact's event skips its executions.
    const client = await createTestClient();
    const key = client.api_key;
    await request('POST', '/client/contacts', { key, body: { email: 'gone@example.com', is_subscribed: false } });

    // Act
    const event = await request('POST', '/client/events?sync=true', {
      key,
      body: { type: 'signup', email: 'gone@example.com' },
    });
    expect(event.status).toBe(201);

    // Assess (the skip happens when the execution runs: the engine, a moment later)
    const stats = await eventually('the skip counted', async () => {
      const res = await request('GET', `/client/workflows/1/stats?${RANGE()}`, { key });
      return res.body.data.totals.skipped === 1 ? res : undefined;
    });
    expect(Object.values(stats.body.data.skipped_reasons as Record<string, number>)).toEqual([1]);
  });

  it('shows a client only its own figures, and refuses a bad range or an unknown workflow', async () => {
    const other = await createTestClient();

    const empty = await request('GET', `/client/stats?${RANGE()}&granularity=week`, { key: other.api_key });
    const tooLong = await request('GET', '/client/stats?from=2025-01-01&to=2026-11-01', { key: other.api_key });
    const unknown = await request('GET', '/client/workflows/999/stats', { key: other.api_key });
    const badDate = await request('GET', '/client/stats?from=2026-02-30', { key: other.api_key });

    expect(empty.status).toBe(200);
    expect(Object.values(empty.body.data.totals).every((n) => n === 0)).toBe(true);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual([
      { condition: 'max', key: 'from', error: expect.stringContaining('400 days') },
    ]);
    expect(unknown.status).toBe(404);
    expect(badDate.status).toBe(422);
    expect(badDate.body.errors[0]).toMatchObject({ key: 'from' });
  });
});
