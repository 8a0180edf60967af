import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';
import { addTestUser, asSession, createAccountClient, signIn } from './support/sessions.js';

describe('API keys with labels', () => {
  it('lists, creates, relabels, disables and deletes keys; a disabled or deleted key is refused at once here', async () => {
    const client = await createAccountClient('growth');
    const owner = await signIn(client.email);
    const first = await asSession(owner, 'GET', '/client/api-keys');
    expect(first.status).toBe(200);
    expect(first.body.data.api_keys).toEqual([
      expect.objectContaining({
        label: null,
        enabled: true,
        created_by: null,
        masked_key: `els_…${client.api_key.slice(-4)}`,
        last_used_at: null,
      }),
    ]);

    const made = await asSession(owner, 'POST', '/client/api-keys', { body: { label: '  CRM sync ' } });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      label: 'CRM sync',
      enabled: true,
      created_by: client.owner_user_id,
      last_used_at: null,
      disabled_at: null,
    });
    const key = made.body.data.key as string;
    expect(made.body.data.masked_key).toBe(`els_…${key.slice(-4)}`);
    expect((await request('GET', '/client/contacts?limit=1', { key })).status).toBe(200);
    const listed = (await asSession(owner, 'GET', '/client/api-keys')).body.data.api_keys as {
      id: number;
      last_used_at: string | null;
      label: string;
    }[];
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(key);
    const mine = listed.find((k) => k.id === made.body.data.id)!;
    expect(mine.last_used_at).not.toBeNull();

    const relabelled = await asSession(owner, 'PATCH', `/client/api-keys/${mine.id}`, { body: { label: 'CRM' } });
    expect(relabelled.body.data).toMatchObject({ id: mine.id, label: 'CRM', enabled: true });
    const disabled = await asSession(owner, 'PATCH', `/client/api-keys/${mine.id}`, { body: { enabled: false } });
    expect(disabled.body.data).toMatchObject({ enabled: false, disabled_at: expect.any(String) });
    expect((await request('GET', '/client/contacts?limit=1', { key })).status).toBe(401);
    expect(
      (await asSession(owner, 'PATCH', `/client/api-keys/${mine.id}`, { body: { enabled: true } })).body.data.enabled,
    ).toBe(true);
    expect((await request('GET', '/client/contacts?limit=1', { key })).status).toBe(200);

    const deleted = await asSession(owner, 'DELETE', `/client/api-keys/${mine.id}`);
    expect(deleted.status).toBe(200);
    expect((await request('GET', '/client/contacts?limit=1', { key })).status).toBe(401);
    expect((await asSession(owner, 'DELETE', `/client/api-keys/${mine.id}`)).status).toBe(404);
    const bad = await asSession(owner, 'PATCH', `/client/api-keys/${mine.id}`, { body: {} });
    expect(bad.status).toBe(422);
  });

  it('is for owners and admins with a session: a member, a viewer and an API key get 403; another client’s key is 404', async () => {
    const client = await createAccountClient('growth');
    const other = await createAccountClient('growth');
    const admin = await signIn(await addTestUser(client, 2));
    const member = await signIn(await addTestUser(client, 3));
    const viewer = await signIn(await addTestUser(client, 4));
    expect((await asSession(admin, 'POST', '/client/api-keys', { body: { label: 'Admin made' } })).status).toBe(201);
    for (const session of [member, viewer]) {
      for (const [method, path] of [
        ['GET', '/client/api-keys'],
        ['POST', '/client/api-keys'],
      ] as const) {
        const res = await asSession(session, method, path, { body: method === 'POST' ? { label: 'x' } : undefined });
        expect(res.status).toBe(403);
        expect(res.body.errors[0]).toMatchObject({ condition: 'forbidden', key: 'role' });
      }
    }
    const byKey = await request('GET', '/client/api-keys', { key: client.api_key });
    expect([byKey.status, byKey.body.errors[0].key]).toEqual([403, 'authorization']);
    expect((await asSession(admin, 'POST', '/client/api-keys', { body: { label: 'x' }, csrf: false })).status).toBe(
      403,
    );
    const otherKeyId = (
      (await asSession(await signIn(other.email), 'GET', '/client/api-keys')).body.data.api_keys as { id: number }[]
    )[0]!.id;
    expect((await asSession(admin, 'DELETE', `/client/api-keys/${otherKeyId}`)).status).toBe(404);
    expect((await request('GET', '/client/contacts?limit=1', { key: other.api_key })).status).toBe(200);
  });

  it('rotates from a session the user’s own key (created on first use), and with an API key that key', async () => {
    const client = await createAccountClient('growth');
    const owner = await signIn(client.email);
    const created = await asSession(owner, 'POST', '/client/api-keys/rotate');
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ key: expect.stringMatching(/^els_/), enabled: true });
    const personal = created.body.data.key as string;
    const rotated = await asSession(owner, 'POST', '/client/api-keys/rotate');
    expect(rotated.body.data.id).not.toBe(created.body.data.id);
    expect((await request('GET', '/client/contacts?limit=1', { key: personal })).status).toBe(401);
    expect((await request('GET', '/client/contacts?limit=1', { key: rotated.body.data.key })).status).toBe(200);
    const keys = (await asSession(owner, 'GET', '/client/api-keys')).body.data.api_keys as {
      id: number;
      label: string | null;
      enabled: boolean;
    }[];
    expect(keys.map((k) => [k.label, k.enabled])).toEqual([
      [null, true],
      [`Personal key of ${client.email}`, false],
      [`Personal key of ${client.email}`, true],
    ]);

    // An API key rotates itself, keeping its label; the client's first key and the others are untouched.
    const labelled = (await asSession(owner, 'POST', '/client/api-keys', { body: { label: 'Billing' } })).body.data
      .key as string;
    const byKey = await request('POST', '/client/api-keys/rotate', { key: labelled });
    expect(byKey.status).toBe(200);
    expect((await request('GET', '/client/contacts?limit=1', { key: labelled })).status).toBe(401);
    expect((await request('POST', '/client/api-keys/rotate', { key: labelled })).status).toBe(401);
    expect((await request('GET', '/client/contacts?limit=1', { key: client.api_key })).status).toBe(200);
    const after = (await asSession(owner, 'GET', '/client/api-keys')).body.data.api_keys as {
      id: number;
      label: string | null;
    }[];
    expect(after.find((k) => k.id === byKey.body.data.id)?.label).toBe('Billing');
  });
});
