import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, RFC3339_UTC } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { awaitExecutionStatus, listExecutions } from './support/executions.js';
import { awaitSesMailsTo } from './support/ses-mailbox.js';

/** A sync signup of a new contact, its welcome e-mail delivered by the local engine; what the API says of them. */
async function deliveredSignup() {
  const client = await createTestClient();
  const email = `tl-${randomUUID().slice(0, 8)}@example.com`;
  const event = await call('POST', '/client/events?sync=true', {
    key: client.api_key,
    body: { type: 'signup', email, auto_create_contact: true },
  });
  expect(event.status).toBe(201);
  const [queued] = await listExecutions(client.api_key, 'workflow_id=1');
  const welcome = await awaitExecutionStatus(client.api_key, queued!.id, 3);
  const sent = await eventually('the welcome e-mail delivered, with its SES logs', async () => {
    const res = await call('GET', `/client/sent-emails/${welcome.sent_email_id}`, { key: client.api_key });
    return res.status === 200 && res.body.data.status === 3 && res.body.data.logs.length >= 4
      ? res.body.data
      : undefined;
  });
  const [tips] = await listExecutions(client.api_key, 'workflow_id=2');
  return { client, email, event: event.body.data, welcome, tips: tips!, sent };
}

async function activity(key: string, ref: string | number, query = '') {
  return call('GET', `/client/contacts/${encodeURIComponent(String(ref))}/activity${query ? `?${query}` : ''}`, {
    key,
  });
}

describe('GET /client/contacts/{id}/activity', () => {
  it("shows a sync signup's delivered e-mail with its logs, both executions and the event, newest first", async () => {
    // Prepare
    const { client, email, event, welcome, tips, sent } = await deliveredSignup();

    // Act
    const res = await activity(client.api_key, event.contact_id);

    // Assess
    expect(res.status).toBe(200);
    const executionItem = (e: typeof welcome) => ({
      kind: 'execution',
      at: e.created_at,
      id: e.id,
      workflow_id: e.workflow_id,
      workflow_name: e.workflow_name,
      broadcast_id: null,
      event_id: event.id,
      status: e.status,
      status_text: e.status_text,
      reason: e.reason,
      is_test: false,
      attempt: 1,
      retried_from: null,
      scheduled_for: e.scheduled_for,
      processed_at: e.processed_at,
      sent_email_id: e.sent_email_id,
      updated_at: e.updated_at,
    });
    // Both executions come from one transaction; at one instant the higher id shows first.
    const executions = [welcome, tips].sort((a, b) =>
      a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1,
    );
    expect(res.body).toEqual({
      success: true,
      message: 'OK',
      data: {
        contact_id: event.contact_id,
        items: [
          {
            kind: 'sent_email',
            at: sent.created_at,
            id: sent.id,
            execution_id: welcome.id,
            workflow_id: 1,
            workflow_name: 'Welcome',
            broadcast_id: null,
            email_template_id: sent.email_template_id,
            email_template_name: sent.email_template_name,
            to_email: email,
            subject: sent.subject,
            provider_message_id: sent.provider_message_id,
            status: 3,
            status_text: 'delivered',
            status_updated_at: sent.status_updated_at,
            logs: sent.logs,
          },
          ...executions.map(executionItem),
          {
            kind: 'event',
            at: event.created_at,
            id: event.id,
            type: 'signup',
            action: null,
            feature: null,
            plan: null,
            source: null,
            status: null,
            amount: null,
            upgrade: null,
            external_id: null,
            ts: event.ts,
            processed_at: event.processed_at,
            process_error: null,
            execution_ids: event.execution_ids,
          },
        ],
        next_cursor: null,
      },
      errors: [],
      // Contact GetItem · 3 gsi2 Queries · 1 BatchGetItem (event, executions) + 1 Query (the e-mail and its logs).
      meta: { request_id: expect.any(String), limit: 20, dynamodb: { requests: 6, waves: 3 } },
    });
    expect(sent.logs.map((l: { status_text: string }) => l.status_text)).toEqual(
      expect.arrayContaining(['queued', 'sent', 'delivered']),
    );
    expect(res.body.data.items[0].at).toMatch(RFC3339_UTC);
  });

  it('walks every item exactly once with limit=1, by id and by e-mail alike, then shows the one-click unsubscription on top', async () => {
    // Prepare
    const { client, email, event, sent } = await deliveredSignup();
    const whole = await activity(client.api_key, email);
    const mail = (await awaitSesMailsTo(email))[0]!;
    const link = mail.headers!.find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);

    // Act
    const seen: unknown[] = [];
    const requests: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await activity(client.api_key, event.contact_id, `limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.items);
      requests.push(page.body.meta.dynamodb.requests);
      cursor = page.body.data.next_cursor;
    } while (cursor && seen.length < 20);
    await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    const after = await activity(client.api_key, event.contact_id, 'limit=2');

    // Assess
    expect(whole.body.meta.dynamodb).toEqual({ requests: 7, waves: 4 }); // by e-mail: the lock's GetItem first
    expect(seen).toEqual(whole.body.data.items);
    expect(seen.map((i) => (i as { kind: string }).kind)).toEqual(['sent_email', 'execution', 'execution', 'event']);
    // Each page: contact · 3 gsi2 Queries · its one record (a sent e-mail's Query, or the BatchGetItem).
    expect(requests).toEqual([5, 5, 5, 5]);
    expect(after.body.data.items).toEqual([
      {
        kind: 'subscription',
        at: expect.stringMatching(RFC3339_UTC),
        is_subscribed: false,
        reason: 'unsubscribe_link',
      },
      expect.objectContaining({ kind: 'sent_email', id: sent.id, status: 11, status_text: 'unsubscribed' }),
    ]);
    expect(after.body.data.items[1].logs.at(-1)).toMatchObject({ status: 11, status_text: 'unsubscribed' });
    expect(after.body.data.next_cursor).toEqual(expect.any(String));
  });

  it("answers another client's contact exactly like a missing one (404), by id and by e-mail, and an erased one too", async () => {
    // Prepare
    const { client, email, event } = await deliveredSignup();
    const other = await createTestClient();
    const gone = await call('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: `gone-${randomUUID().slice(0, 8)}@example.com` },
    });
    await call('DELETE', `/client/contacts/${gone.body.data.id}`, { key: client.api_key });

    // Act
    const answers = await Promise.all([
      activity(other.api_key, event.contact_id),
      activity(other.api_key, email),
      activity(client.api_key, 999_999_999),
      activity(client.api_key, gone.body.data.id),
    ]);

    // Assess
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        message: 'Contact not found',
        data: {},
        errors: [{ condition: 'not_found', error: 'Contact not found', key: 'id' }],
        meta: { request_id: expect.any(String) },
      });
    }
  });

  it("refuses an altered cursor, another contact's and another client's (422 on cursor), and a bad limit", async () => {
    // Prepare
    const ann = await deliveredSignup();
    const bob = await call('POST', '/client/contacts', {
      key: ann.client.api_key,
      body: { email: `bob-${randomUUID().slice(0, 8)}@example.com` },
    });
    const first = await activity(ann.client.api_key, ann.event.contact_id, 'limit=1');
    const cursor: string = first.body.data.next_cursor;
    const [payload, mac] = cursor.split('.') as [string, string];
    const moved = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: 1 }),
    ).toString('base64url');

    // Act
    const answers = await Promise.all([
      activity(ann.client.api_key, ann.event.contact_id, `limit=1&cursor=${moved}.${mac}`),
      activity(ann.client.api_key, bob.body.data.id, `limit=1&cursor=${cursor}`),
      activity(ann.client.api_key, ann.event.contact_id, 'cursor=nonsense'),
    ]);
    const limits = await Promise.all(
      ['limit=0', 'limit=101', 'limit=abc'].map((q) => activity(ann.client.api_key, ann.event.contact_id, q)),
    );

    // Assess
    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        {
          condition: 'format',
          key: 'cursor',
          error: 'Not a cursor of this timeline (it belongs to another contact or client, or was altered)',
        },
      ]);
    }
    for (const res of limits) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ key: 'limit' })]);
    }
  });
});
