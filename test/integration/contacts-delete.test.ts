import { describe, expect, it } from 'vitest';
import { call, request, RFC3339_UTC } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { listExecutions } from './support/executions.js';
import {
  awaitStatus,
  deliveredAt,
  deliveredWelcome,
  HUMAN_IP,
  HUMAN_UA,
  injectAndAwait,
  later,
  MINUTE_MS,
  SENT_STATUS,
  sendWelcome,
  sesEvent,
  sesMailOf,
  uniqueAddress,
  getSentEmail,
} from './tracking/support.js';

/**
 * DELETE /client/contacts/{id}: erasure (GDPR Art. 17). The contact and its locks go, its queued executions are
 * cancelled, its events and sent e-mails keep ids and statuses without a personal datum, and an address that bounced
 * or complained stays as a hashed suppression marker.
 */
const erase = (key: string, ref: string | number) =>
  call('DELETE', `/client/contacts/${encodeURIComponent(String(ref))}`, { key });

describe('DELETE /client/contacts/{id}', () => {
  it("erases a contact who was mailed: the contact, its locks, its history's personal data; queued executions cancelled", async () => {
    // Prepare: a signup sends the welcome (delivered, then opened by a person) and queues the tips e-mail for tomorrow.
    const t = await deliveredWelcome(uniqueAddress('erase'));
    const key = t.client.api_key;
    const openedAt = later(deliveredAt(t.email), MINUTE_MS);
    await injectAndAwait(t, sesEvent.open(sesMailOf(t), openedAt), openedAt);
    const patched = await call('PATCH', `/client/contacts/${t.contactId}`, {
      key,
      body: { client_contact_id: 'crm-erase-1', first_name: 'Ann', custom_fields: { plan_name: 'pro' } },
    });
    expect(patched.status, patched.text).toBe(200);
    const executions = await listExecutions(key);
    const tips = executions.find((e) => e.workflow_id === 2)!;
    expect(tips).toMatchObject({ status: 1 });
    const eventId = executions.find((e) => e.workflow_id === 1)!.event_id!;

    // Act
    const res = await erase(key, t.address.toUpperCase());

    // Assess
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Contact erased' });
    expect(res.body.data).toEqual({
      id: t.contactId,
      erased: true,
      already_erased: false,
      contact: 1,
      locks: 2,
      suppression_marker: false,
      events: 1,
      executions: 2,
      executions_cancelled: 1,
      sent_emails: 1,
      logs: 1,
      webhook_messages: 0,
      webhook_attempts: 0,
      erased_at: expect.stringMatching(RFC3339_UTC),
    });
    expect(res.body.meta.dynamodb.requests).toBeGreaterThan(0);
    expect((await call('GET', `/client/contacts/${t.contactId}`, { key })).status).toBe(404);
    expect((await call('GET', `/client/contacts/${encodeURIComponent(t.address)}`, { key })).status).toBe(404);
    const listed = await call('GET', '/client/contacts', { key });
    expect(listed.body.data.contacts.map((c: { id: number }) => c.id)).not.toContain(t.contactId);

    const event = (await call('GET', `/client/events/${eventId}`, { key })).body.data;
    expect(event).toMatchObject({
      id: eventId,
      type: 'signup',
      contact_id: t.contactId,
      contact: null,
      metadata: {},
      processed: true,
    });
    expect(JSON.stringify(event)).not.toContain(t.address);

    const email = await getSentEmail(key, t.email.id);
    expect(email).toMatchObject({
      id: t.email.id,
      to_email: '',
      subject: '',
      html_body: '',
      status: SENT_STATUS.opened,
    });
    const text = JSON.stringify(email);
    for (const trace of [t.address, HUMAN_IP, HUMAN_UA, 'Ann']) expect(text).not.toContain(trace);
    expect(email.logs.map((l) => l.status)).toEqual(
      expect.arrayContaining([SENT_STATUS.sent, SENT_STATUS.delivered, SENT_STATUS.opened]),
    );

    const after = await listExecutions(key);
    expect(after.find((e) => e.id === tips.id)).toMatchObject({
      status: 5,
      status_text: 'cancelled',
      reason: 'contact_erased',
    });
    expect(after.find((e) => e.workflow_id === 1)).toMatchObject({ status: 3, sent_email_id: t.email.id });
  });

  it('frees the address and the client_contact_id: both can belong to a new contact', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const address = uniqueAddress('again');
    const first = await call('POST', '/client/contacts', {
      key,
      body: { email: address, client_contact_id: 'crm-again' },
    });
    expect(first.status, first.text).toBe(201);
    expect((await erase(key, first.body.data.id)).status).toBe(200);

    // Act
    const second = await call('POST', '/client/contacts', {
      key,
      body: { email: address, client_contact_id: 'crm-again' },
    });

    // Assess
    expect(second.status, second.text).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data).toMatchObject({ email: address, is_subscribed: true });
  });

  it('is repeatable: by id an erased contact answers 200 already_erased with zero counts, by e-mail 404', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const address = uniqueAddress('twice');
    const created = await call('POST', '/client/contacts', { key, body: { email: address } });
    const id = created.body.data.id as number;
    expect((await erase(key, id)).status).toBe(200);

    // Act
    const byId = await erase(key, id);
    const byEmail = await erase(key, address);

    // Assess
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body).toMatchObject({ message: 'Contact already erased' });
    expect(byId.body.data).toEqual({
      id,
      erased: true,
      already_erased: true,
      contact: 0,
      locks: 0,
      suppression_marker: false,
      events: 0,
      executions: 0,
      executions_cancelled: 0,
      sent_emails: 0,
      logs: 0,
      webhook_messages: 0,
      webhook_attempts: 0,
      erased_at: null,
    });
    expect(byEmail.status).toBe(404);
    expect(byEmail.body.errors).toEqual([{ condition: 'not_found', key: 'id', error: 'Contact not found' }]);
  });

  it("answers 404 for another client's contact, by id and by e-mail, and leaves it whole", async () => {
    // Prepare
    const owner = await createTestClient();
    const other = await createTestClient();
    const address = uniqueAddress('owned');
    const created = await call('POST', '/client/contacts', {
      key: owner.api_key,
      body: { email: address, first_name: 'Owned' },
    });
    const id = created.body.data.id as number;

    // Act
    const byId = await erase(other.api_key, id);
    const byEmail = await erase(other.api_key, address);

    // Assess
    for (const res of [byId, byEmail]) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.errors).toEqual([{ condition: 'not_found', key: 'id', error: 'Contact not found' }]);
    }
    const still = await call('GET', `/client/contacts/${id}`, { key: owner.api_key });
    expect(still.status).toBe(200);
    expect(still.body.data).toMatchObject({ email: address, first_name: 'Owned' });
  });

  it('answers 401 without credentials and 404 for an id that never existed', async () => {
    // Act
    const anonymous = await request('DELETE', '/client/contacts/1');
    const { api_key: key } = await createTestClient();
    const unknown = await erase(key, 999_999_999);

    // Assess
    expect(anonymous.status).toBe(401);
    expect(unknown.status).toBe(404);
  });
});

describe('an erased address that hard-bounced', () => {
  it('stays as a suppression marker: creating, importing, updating to it or an auto-creating event is refused', async () => {
    // Prepare: the simulator's bounce address hard-bounces the welcome and unsubscribes the contact (hard_bounce).
    const t = await sendWelcome('bounce@simulator.amazonses.com');
    const key = t.client.api_key;
    await awaitStatus(key, t.email.id, SENT_STATUS.bounced);

    // Act
    const res = await erase(key, t.contactId);

    // Assess
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ suppression_marker: true, locks: 0, contact: 1 });
    const suppressed = {
      condition: 'suppressed',
      key: 'email',
      error: 'This address hard-bounced or complained before its contact was erased; it cannot be added again',
    };

    const created = await call('POST', '/client/contacts', { key, body: { email: t.address } });
    expect(created.status, created.text).toBe(409);
    expect(created.body.errors).toEqual([suppressed]);

    const imported = await call('POST', '/client/contacts/bulk', {
      key,
      body: { contacts: [{ email: t.address }, { email: uniqueAddress('fine') }] },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.data).toMatchObject({ created: 1, failed: 1 });
    expect(imported.body.data.results[0]).toMatchObject({
      status: 'failed',
      errors: [{ ...suppressed, key: 'contacts.0.email' }],
    });

    const other = await call('POST', '/client/contacts', { key, body: { email: uniqueAddress('mover') } });
    const moved = await call('PATCH', `/client/contacts/${other.body.data.id}`, { key, body: { email: t.address } });
    expect(moved.status, moved.text).toBe(409);
    expect(moved.body.errors).toEqual([suppressed]);

    const event = await call('POST', '/client/events?sync=true', {
      key,
      body: { type: 'signup', email: t.address, auto_create_contact: true },
    });
    expect(event.status, event.text).toBe(201);
    expect(event.body.data).toMatchObject({ contact_id: null, process_error: 'contact_suppressed', execution_ids: [] });
  });
});
