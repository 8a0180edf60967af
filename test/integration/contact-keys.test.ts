import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { call, request } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { clientItems } from './support/partition.js';

/**
 * Contacts and their locks live on keys of their own (docs/capacity.md §4): every way a contact is created writes
 * its item, its listing entry and its locks there, and nothing of it under the client's configuration partition.
 */
describe('contact keys', () => {
  it('writes every contact on its own key with a listing entry and its locks, whichever endpoint created it', async () => {
    // Prepare
    const client = await createTestClient();
    const form = new FormData();
    form.append(
      'file',
      new Blob(['email,client_contact_id\ncsv@example.com,crm-csv\n'], { type: 'text/csv' }),
      'c.csv',
    );

    // Act
    const created = await Promise.all([
      call('POST', '/client/contacts', {
        key: client.api_key,
        body: { email: 'one@example.com', client_contact_id: 'crm-one' },
      }),
      call('POST', '/client/contacts/bulk', {
        key: client.api_key,
        body: { contacts: [{ email: 'bulk@example.com' }] },
      }),
      request('POST', '/client/contacts/bulk/csv', { key: client.api_key, rawBody: form }),
      call('POST', '/client/events?sync=true', {
        key: client.api_key,
        body: { type: 'feature_used', email: 'event@example.com', auto_create_contact: true },
      }),
    ]);

    // Assess
    expect(created.map((r) => r.status)).toEqual([201, 200, 200, 201]);
    const items = await clientItems(client.id);
    const contacts = items.filter((i) => i['sk'] === 'CONTACT');
    expect(contacts.map((c) => c['email']).sort()).toEqual([
      'bulk@example.com',
      'csv@example.com',
      'event@example.com',
      'one@example.com',
    ]);
    for (const c of contacts) {
      const id = Number(c['id']);
      expect(c).toMatchObject({
        ...keys.contact(client.id, id),
        ...keys.contactListing(client.id, id),
        client_id: client.id,
      });
    }
    const locks = items.filter((i) => i['sk'] === 'EMAIL' || i['sk'] === 'UID');
    expect(locks.map((l) => l['pk']).sort()).toEqual(
      [
        ...contacts.map((c) => keys.emailLock(client.id, String(c['email'])).pk),
        `UID#${client.id}#crm-csv`,
        `UID#${client.id}#crm-one`,
      ].sort(),
    );
    expect(
      items.filter((i) => i['pk'] === `CLIENT#${client.id}` && /^(CONTACT|EMAIL|UID)#/.test(String(i['sk']))),
    ).toEqual([]);
  });

  it("never finds another client's contact through its own keys", async () => {
    // Prepare
    const [owner, other] = await Promise.all([createTestClient(), createTestClient()]);
    const created = await call('POST', '/client/contacts', {
      key: owner.api_key,
      body: { email: 'shared@example.com' },
    });

    // Act
    const [byId, byEmail] = await Promise.all([
      call('GET', `/client/contacts/${created.body.data.id}`, { key: other.api_key }),
      call('GET', '/client/contacts/shared@example.com', { key: other.api_key }),
    ]);
    // After the reads: once created, the other client's own contact of that address would rightly be found.
    const otherCreate = await call('POST', '/client/contacts', {
      key: other.api_key,
      body: { email: 'shared@example.com' },
    });

    // Assess
    expect(byId.status).toBe(404);
    expect(byEmail.status).toBe(404);
    expect(otherCreate.status).toBe(201);
    expect(otherCreate.body.data.id).not.toBe(created.body.data.id);
  });
});
