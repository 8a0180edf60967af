import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { clientItems } from './support/partition.js';

async function withContact(body: Record<string, unknown> = {}) {
  const client = await createTestClient();
  const created = await call('POST', '/client/contacts', {
    key: client.api_key,
    body: {
      email: 'ann@example.com',
      first_name: 'Ann',
      company: 'Acme',
      client_contact_id: 'crm-1',
      custom_fields: { plan: 'pro' },
      ...body,
    },
  });
  expect(created.status).toBe(201);
  return { client, contact: created.body.data };
}

describe('PATCH /client/contacts/{id} (extra)', () => {
  it('changes only the fields given, clears a field given empty, merges custom fields, and answers the contact', async () => {
    // Prepare
    const { client, contact } = await withContact();

    // Act
    const res = await call('PATCH', `/client/contacts/${contact.id}`, {
      key: client.api_key,
      body: { last_name: 'Lee', company: '', custom_fields: { seats: 5 } },
    });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Contact updated');
    expect(res.body.data).toMatchObject({
      first_name: 'Ann',
      last_name: 'Lee',
      company: null,
      custom_field_values: { plan: 'pro', seats: 5 },
    });
    expect(res.body.data.updated_at > contact.updated_at).toBe(true);
    expect((await call('GET', `/client/contacts/${contact.id}`, { key: client.api_key })).body.data).toEqual(
      res.body.data,
    );
  });

  it('moves the e-mail and uid locks with a new e-mail and client_contact_id (the contact is found by its new values only)', async () => {
    // Prepare
    const { client, contact } = await withContact();

    // Act
    const res = await call('PATCH', '/client/contacts/ann@example.com', {
      key: client.api_key,
      body: { email: 'Ann.Lee@Example.com', client_contact_id: 'crm-2' },
    });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: contact.id, email: 'ann.lee@example.com', client_contact_id: 'crm-2' });
    expect((await call('GET', '/client/contacts/ann.lee@example.com', { key: client.api_key })).body.data.id).toBe(
      contact.id,
    );
    expect((await call('GET', '/client/contacts/ann@example.com', { key: client.api_key })).status).toBe(404);
    const locks = (await clientItems(client.id, { emails: ['ann@example.com'], uids: ['crm-1'] })).filter(
      (i) => i['sk'] === 'EMAIL' || i['sk'] === 'UID',
    );
    expect(locks.map((l) => [l['pk'], l['contact_id']]).sort()).toEqual([
      [keys.emailLock(client.id, 'ann.lee@example.com').pk, contact.id],
      [`UID#${client.id}#crm-2`, contact.id],
    ]);
    // The old e-mail is free again.
    expect(
      (await call('POST', '/client/contacts', { key: client.api_key, body: { email: 'ann@example.com' } })).status,
    ).toBe(201);
  });

  it.each([
    ['email', { email: 'bob@example.com' }],
    ['client_contact_id', { client_contact_id: 'crm-bob' }],
  ])('answers 409 unique on %s held by another contact and changes nothing', async (key, body) => {
    // Prepare
    const { client, contact } = await withContact();
    await call('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'bob@example.com', client_contact_id: 'crm-bob' },
    });
    const before = await clientItems(client.id);

    // Act
    const res = await call('PATCH', `/client/contacts/${contact.id}`, {
      key: client.api_key,
      body: { ...body, first_name: 'Changed' },
    });

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([expect.objectContaining({ condition: 'unique', key })]);
    expect(await clientItems(client.id)).toEqual(before);
  });

  it('answers 422 with precise items for bad values and writes nothing', async () => {
    // Prepare
    const { client, contact } = await withContact();
    const before = await clientItems(client.id);

    // Act
    const res = await call('PATCH', `/client/contacts/${contact.id}`, {
      key: client.api_key,
      body: { email: 'not-an-address', timezone: 'Mars/Olympus', source: 'fax' },
    });

    // Assess
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { key: string }) => e.key).sort()).toEqual(['email', 'source', 'timezone']);
    expect(await clientItems(client.id)).toEqual(before);
  });

  it('answers 200 unchanged, writing nothing, when the body changes nothing', async () => {
    // Prepare
    const { client, contact } = await withContact();
    const before = await clientItems(client.id);

    // Act
    const res = await call('PATCH', `/client/contacts/${contact.id}`, {
      key: client.api_key,
      body: { first_name: 'Ann' },
    });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Contact unchanged');
    expect(await clientItems(client.id)).toEqual(before);
  });

  it("answers 404 for another client's contact, by id and by e-mail, and changes nothing of it", async () => {
    // Prepare
    const { client, contact } = await withContact();
    const other = await createTestClient();

    // Act
    const byId = await call('PATCH', `/client/contacts/${contact.id}`, {
      key: other.api_key,
      body: { first_name: 'Mallory' },
    });
    const byEmail = await call('PATCH', '/client/contacts/ann@example.com', {
      key: other.api_key,
      body: { first_name: 'Mallory' },
    });

    // Assess
    expect([byId.status, byEmail.status]).toEqual([404, 404]);
    expect((await call('GET', `/client/contacts/${contact.id}`, { key: client.api_key })).body.data.first_name).toBe(
      'Ann',
    );
  });
});
