import { describe, expect, it } from 'vitest';
import { request } from '../support/api.js';
import { createTestClient } from '../support/clients.js';

/**
 * Routing over HTTP: a literal path never reaches the `{id}` handler beside it, and a blank contact id is
 * a 404 like any id that names nothing.
 */
describe('literal paths beside {id} paths', () => {
  it.each([
    ['GET', '/client/contacts/bulk'],
    ['PATCH', '/client/contacts/bulk'],
    ['DELETE', '/client/contacts/bulk'],
    ['OPTIONS', '/client/contacts/bulk'],
    ['GET', '/client/email-templates/list'],
    ['PATCH', '/client/email-templates/list'],
    ['DELETE', '/client/email-templates/list'],
  ])('answer %s %s 405 with Allow: POST, with a key or without', async (method, path) => {
    const { api_key: key } = await createTestClient();

    for (const res of [await request(method, path, { key }), await request(method, path)]) {
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe('POST');
      expect(res.body).toMatchObject({
        success: false,
        data: {},
        errors: [
          {
            condition: 'method_not_allowed',
            key: 'method',
            error: `${method} is not allowed on /api/v1${path}; allowed: POST`,
          },
        ],
      });
    }
  });

  it('still serves the {id} routes for ids that only look alike', async () => {
    const { api_key: key } = await createTestClient();
    await request('POST', '/client/contacts', { key, body: { email: 'bulk@example.com' } });

    expect((await request('GET', '/client/contacts/bulk%40example.com', { key })).status).toBe(200);
    expect((await request('GET', '/client/email-templates/listing', { key })).status).toBe(404);
  });
});

describe('a blank contact id', () => {
  it.each(['%C2%A0', '%20', '%09%20', '%E2%80%83'])(
    '%s answers 404 "Contact not found" on every contact route',
    async (id) => {
      const { api_key: key } = await createTestClient();

      const answers = [
        await request('GET', `/client/contacts/${id}`, { key }),
        await request('PATCH', `/client/contacts/${id}`, { key, body: { first_name: 'X' } }),
        await request('DELETE', `/client/contacts/${id}`, { key }),
        await request('PATCH', `/client/contacts/${id}/subscription`, { key, body: { is_subscribed: false } }),
      ];

      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body.errors).toEqual([{ condition: 'not_found', key: 'id', error: 'Contact not found' }]);
      }
    },
  );
});
