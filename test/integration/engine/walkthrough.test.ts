import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, checkContract, RFC3339_UTC } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { awaitExecutionStatus, listExecutions } from '../support/executions.js';
import { eventually } from '../support/eventually.js';
import { awaitSesMailsTo } from '../support/ses-mailbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 86_400_000;

/** The onboarding tips' send time for a free client without settings: the first 09:00 UTC a day after `ts`. */
function nextMorningAfterOneDay(ts: string): string {
  const due = Date.parse(ts) + DAY_MS;
  const d = new Date(due);
  const nine = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 9);
  return new Date(nine >= due ? nine : nine + DAY_MS).toISOString();
}

/** README "Your first lifecycle e-mail", step by step over HTTP against the local runtime. */
describe('the README walk-through', () => {
  it('sends the welcome e-mail of a sync signup at once and shows it as a completed execution and a sent e-mail', async () => {
    // Prepare
    const client = await createTestClient();
    const email = `ada-${randomUUID().slice(0, 8)}@example.com`;

    // Act
    const res = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email, auto_create_contact: true },
    });

    // Assess: the processed Event, with the contact it created and two executions
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Event processed' });
    const event = res.body.data;
    expect(event).toEqual({
      id: expect.any(Number),
      client_id: client.id,
      contact_id: expect.any(Number),
      contact: { email, first_name: null, last_name: null },
      type: 'signup',
      action: null,
      feature: null,
      plan: null,
      source: null,
      status: null,
      amount: null,
      upgrade: null,
      external_id: null,
      idempotency_key: null,
      metadata: {},
      ts: expect.stringMatching(RFC3339_UTC),
      processed: true,
      processed_at: expect.stringMatching(RFC3339_UTC),
      process_error: null,
      execution_ids: [expect.any(Number), expect.any(Number)],
      created_at: expect.stringMatching(RFC3339_UTC),
    });

    // Assess: the welcome mail reaches SES within seconds, with the one-click unsubscribe headers
    const [mail, ...more] = await awaitSesMailsTo(email);
    expect(more).toEqual([]);
    expect(mail!.destination.to).toEqual([email]);
    const headers = Object.fromEntries((mail!.headers ?? []).map((h) => [h.name, h.value]));
    expect(headers['List-Unsubscribe']).toMatch(/^<http:\/\/[^>]+\/u\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+>$/);
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    // Assess: welcome completed with its sent e-mail; onboarding tips queued for the next morning (09:00 UTC)
    const [queuedWelcome, ...otherWelcomes] = await listExecutions(client.api_key, 'workflow_id=1');
    expect(otherWelcomes).toEqual([]);
    const welcome = await awaitExecutionStatus(client.api_key, queuedWelcome!.id, 3);
    expect(welcome).toEqual({
      id: expect.any(Number),
      workflow_id: 1,
      workflow_name: 'Welcome',
      contact_id: event.contact_id,
      event_id: event.id,
      status: 3,
      status_text: 'completed',
      reason: null,
      goal_event_id: null,
      is_test: false,
      attempt: 1,
      retried_from: null,
      scheduled_for: event.ts,
      processed_at: expect.stringMatching(RFC3339_UTC),
      sent_email_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const [tips, ...others] = await listExecutions(client.api_key, 'workflow_id=2');
    expect(others).toEqual([]);
    expect(tips).toMatchObject({
      workflow_id: 2,
      event_id: event.id,
      status: 1,
      status_text: 'queued',
      reason: 'preferred_time',
      scheduled_for: nextMorningAfterOneDay(event.ts),
      processed_at: null,
      sent_email_id: null,
    });
    expect([...event.execution_ids].sort()).toEqual([welcome.id, tips!.id].sort());

    // Assess: the sent e-mail, delivered by itself (the local SES reports Send and Delivery), with the emulator's
    // message id and its logs: queued and sent by the executor, then SES's Send and Delivery notifications
    const sent = await eventually('the welcome e-mail delivered', async () => {
      const res = await call('GET', `/client/sent-emails/${welcome.sent_email_id}`, { key: client.api_key });
      return res.status === 200 && res.body.data.status === 3 ? res : undefined;
    });
    expect(sent.body.data).toEqual({
      id: welcome.sent_email_id,
      client_id: client.id,
      contact_id: event.contact_id,
      email_template_id: 1,
      email_template_name: expect.any(String),
      from_email: expect.stringMatching(/^"Test client [0-9a-f]{8}" <[^>]+@[^>]+>$/),
      to_email: email,
      subject: mail!.subject,
      html_body: expect.stringContaining('/u/'),
      text_body: expect.any(String),
      browser_url: expect.stringMatching(/^http:\/\/[^/]+\/v\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      provider_message_id: mail!.messageId,
      status: 3,
      status_text: 'delivered',
      status_updated_at: expect.stringMatching(RFC3339_UTC),
      created_at: expect.stringMatching(RFC3339_UTC),
      execution_id: welcome.id,
      logs: expect.any(Array),
    });
    const log = (status: number, status_text: string, provider_message_id: string | null, detail: unknown) => ({
      id: expect.any(String),
      created_at: expect.stringMatching(RFC3339_UTC),
      status,
      status_text,
      provider_message_id,
      url: null,
      ip_address: null,
      user_agent: null,
      is_bot: false,
      bot_reason: null,
      detail,
    });
    // The SES Send event carries the time SES took the e-mail, which may precede the executor's own `sent` log.
    const byStatus = [...sent.body.data.logs].sort(
      (a, b) => a.status - b.status || (a.detail ?? '').localeCompare(b.detail ?? ''),
    );
    expect(byStatus).toEqual([
      log(1, 'queued', null, null),
      log(2, 'sent', mail!.messageId, null),
      log(2, 'sent', mail!.messageId, 'SES Send event'),
      log(3, 'delivered', mail!.messageId, expect.any(String)),
    ]);
    expect(sent.body.data.html_body).toContain(headers['List-Unsubscribe']!.slice(1, -1));

    // Assess: the statistics the API guide's walk-through shows (the counters follow the facts through the stream)
    const stats = await eventually('the delivery counted', async () => {
      const res = await call('GET', '/client/stats', { key: client.api_key });
      return res.body.data?.totals?.delivered === 1 ? res : undefined;
    });
    expect(stats.body.data.totals).toMatchObject({ executions: 2, sent: 1, delivered: 1, opened: 0, bot_opened: 0 });
    expect(stats.body.data.events).toEqual({ signup: 1 });
  });

  it('unsubscribes the contact with the one-click link of the welcome e-mail', async () => {
    // Prepare
    const client = await createTestClient();
    const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
    const res = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email, auto_create_contact: true },
    });
    const [mail] = await awaitSesMailsTo(email);
    const link = (mail!.headers ?? []).find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);

    // Act
    const answer = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    });

    // Assess
    const path = new URL(link).pathname;
    await checkContract({
      method: 'POST',
      path,
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? '',
      text: await answer.text(),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('set-cookie')).toBeNull();
    const contact = await call('GET', `/client/contacts/${res.body.data.contact_id}`, { key: client.api_key });
    expect(contact.body.data).toMatchObject({
      email,
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: expect.stringMatching(RFC3339_UTC),
    });
  });
});
