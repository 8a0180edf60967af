import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, RFC3339_UTC } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { awaitSesMailsTo } from './support/ses-mailbox.js';

const oneClick = (link: string) =>
  fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
    redirect: 'manual',
  });

describe('POST /u/{token} (one-click unsubscribe)', () => {
  it('unsubscribes the contact and logs the e-mail once, however often the POST arrives', async () => {
    // Prepare: a welcome e-mail and its List-Unsubscribe link (the token's payload names the sent e-mail)
    const client = await createTestClient();
    const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
    const res = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email, auto_create_contact: true },
    });
    const [mail] = await awaitSesMailsTo(email);
    const link = (mail!.headers ?? []).find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);
    const payload = Buffer.from(new URL(link).pathname.split('/').at(-1)!.split('.')[0]!, 'base64url').toString();
    const sentEmailId = payload.split(':')[2]!;

    // Act
    const first = await oneClick(link);
    const second = await oneClick(link);

    // Assess
    expect([first.status, second.status]).toEqual([200, 200]);
    const contact = await call('GET', `/client/contacts/${res.body.data.contact_id}`, { key: client.api_key });
    expect(contact.body.data).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'unsubscribe_link',
      unsubscribed_at: expect.stringMatching(RFC3339_UTC),
    });
    const sent = await call('GET', `/client/sent-emails/${sentEmailId}`, { key: client.api_key });
    const unsubscribed = sent.body.data.logs.filter((log: { status: number }) => log.status === 11);
    expect(unsubscribed).toEqual([
      expect.objectContaining({
        id: 'unsubscribe-link',
        status_text: 'unsubscribed',
        created_at: contact.body.data.unsubscribed_at,
      }),
    ]);
  });

  it.each([
    ['no body', undefined, undefined],
    ['an empty form', 'application/x-www-form-urlencoded', ''],
    ['another value', 'application/x-www-form-urlencoded', 'List-Unsubscribe=Yes'],
    ['another field', 'application/x-www-form-urlencoded', 'unsubscribe=1'],
    ['a JSON body', 'application/json', '{"List-Unsubscribe":"One-Click"}'],
    ['plain text', 'text/plain', 'hello'],
  ])('changes nothing on a POST with %s, and answers the preference page', async (_what, contentType, body) => {
    // Prepare
    const { contactId, link, key } = await signupWithLink();

    // Act
    const res = await fetch(link, {
      method: 'POST',
      ...(contentType ? { headers: { 'content-type': contentType } } : {}),
      ...(body !== undefined ? { body } : {}),
      redirect: 'manual',
    });

    // Assess: the GET's page, 200, and the contact still subscribed.
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('name="form" value="preferences"');
    expect(html).not.toContain('You are unsubscribed');
    const contact = await call('GET', `/client/contacts/${contactId}`, { key });
    expect(contact.body.data).toMatchObject({ is_subscribed: true, unsubscribe_reason: null });
  });

  it('unsubscribes with the RFC 8058 field sent as multipart/form-data', async () => {
    const { contactId, link, key } = await signupWithLink();
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');

    const res = await fetch(link, { method: 'POST', body: form, redirect: 'manual' });

    expect(res.status).toBe(200);
    const contact = await call('GET', `/client/contacts/${contactId}`, { key });
    expect(contact.body.data).toMatchObject({ is_subscribed: false, unsubscribe_reason: 'unsubscribe_link' });
  });
});

/** A client, a contact signed up with a welcome e-mail, and that e-mail's List-Unsubscribe link. */
async function signupWithLink(): Promise<{ contactId: number; link: string; key: string }> {
  const client = await createTestClient();
  const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
  const res = await call('POST', '/client/events?sync=true', {
    key: client.api_key,
    body: { type: 'signup', email, auto_create_contact: true },
  });
  const [mail] = await awaitSesMailsTo(email);
  const link = (mail!.headers ?? []).find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);
  return { contactId: res.body.data.contact_id, link, key: client.api_key };
}
