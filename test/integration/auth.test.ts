import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';
import { createTestClient, disableTestKey, suspendTestClient } from './support/clients.js';

const expect401 = (res: Awaited<ReturnType<typeof request>>) => {
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ success: false, data: {}, meta: { request_id: expect.any(String) } });
  expect(res.body.errors).toEqual([{ condition: 'unauthorized', error: expect.any(String), key: 'authorization' }]);
};

describe('authentication over HTTP', () => {
  it('answers 401 when the Authorization header is missing', async () => {
    expect401(await request('GET', '/client/contacts/1'));
  });

  it.each([['garbage'], ['Bearer garbage'], [`Bearer els_${'x'.repeat(40)}`], ['Basic dXNlcjpwYXNz']])(
    'answers 401 for the header %j',
    async (header) => {
      expect401(await request('GET', '/client/contacts/1', { headers: { authorization: header } }));
    },
  );

  it('answers a 100 KB Authorization header with a 431 envelope, not an empty body', async () => {
    const res = await request('GET', '/client/contacts/1', {
      headers: { authorization: `Bearer ${'a'.repeat(100_000)}` },
    });
    expect(res.status).toBe(431);
    expect(res.body).toEqual({
      data: {},
      errors: [{ condition: 'max', error: expect.stringContaining('headers'), key: 'headers' }],
      message: 'Request Header Fields Too Large',
      meta: { request_id: expect.any(String) },
      success: false,
    });
  });

  it('accepts the raw key as well as the Bearer form', async () => {
    const client = await createTestClient();
    const created = await request('POST', '/client/contacts', {
      key: client.api_key,
      body: { email: 'raw@acme.test' },
    });
    expect(created.status).toBe(201);
    const raw = await request('GET', '/client/contacts/raw@acme.test', { headers: { authorization: client.api_key } });
    expect(raw.status).toBe(200);
  });

  it('answers 401 for a disabled key', async () => {
    const client = await createTestClient();
    await disableTestKey(client.id);
    expect401(await request('GET', '/client/contacts/1', { key: client.api_key }));
  });

  it('answers 403 for a suspended client', async () => {
    const client = await createTestClient();
    await suspendTestClient(client.id);
    const res = await request('GET', '/client/contacts/1', { key: client.api_key });
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([{ condition: 'forbidden', error: expect.any(String), key: 'client' }]);
  });

  it('rotates the key: the new key is shown once and works, the old one is refused from then on', async () => {
    // Prepare
    const client = await createTestClient();
    expect((await request('GET', '/client/contacts/1', { key: client.api_key })).status).toBe(404); // authenticated
    // Act
    const rotated = await request('POST', '/client/api-keys/rotate', { key: client.api_key });
    // Assess
    expect(rotated.status).toBe(200);
    const key = rotated.body.data as { id: number; key: string; masked_key: string; enabled: boolean };
    expect(key).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(/^els_[0-9A-Za-z]{40}$/),
      masked_key: `els_…${key.key.slice(-4)}`,
      enabled: true,
    });
    expect(key.key).not.toBe(client.api_key);
    expect401(await request('GET', '/client/contacts/1', { key: client.api_key }));
    expect((await request('GET', '/client/contacts/1', { key: key.key })).status).toBe(404);
    expect401(await request('POST', '/client/api-keys/rotate', { key: client.api_key }));
  });
});
