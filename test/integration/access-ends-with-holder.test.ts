import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';
import { addTestUser, asSession, createAccountClient, signIn, type Session } from './support/sessions.js';

/** The id of the user with `email`, as the owner's users page reads it. */
async function userIdOf(owner: Session, email: string): Promise<number> {
  const users = (await asSession(owner, 'GET', '/client/users')).body.data.users as { id: number; email: string }[];
  return users.find((u) => u.email === email)!.id;
}

/** An admin's labelled key (POST /client/api-keys) and personal key (rotate with its session), both working. */
async function adminKeys(client: Parameters<typeof addTestUser>[0]) {
  const email = await addTestUser(client, 2);
  const admin = await signIn(email);
  const labelled = await asSession(admin, 'POST', '/client/api-keys', { body: { label: 'CRM sync' } });
  const personal = await asSession(admin, 'POST', '/client/api-keys/rotate');
  expect([labelled.status, personal.status]).toEqual([201, 200]);
  expect(labelled.body.data.creator).toMatchObject({ email, name: 'User 2' });
  const keys = [labelled.body.data.key as string, personal.body.data.key as string];
  for (const key of keys) {
    // What such a key reaches: settings, webhooks, contacts and their erasure.
    expect((await request('GET', '/client/settings', { key })).status).toBe(200);
  }
  return { email, admin, keys, ids: [labelled.body.data.id as number, personal.body.data.id as number] };
}

describe('access ends with its holder (API keys of a removed or demoted user)', () => {
  it('a removed admin’s labelled and personal keys answer 401 at once, are listed disabled, and cannot be enabled again', async () => {
    const client = await createAccountClient('growth');
    const owner = await signIn(client.email);
    const ownersKey = (await asSession(owner, 'POST', '/client/api-keys', { body: { label: 'Owner’s' } })).body.data
      .key as string;
    const { email, keys, ids } = await adminKeys(client);
    const adminId = await userIdOf(owner, email);

    const listedBefore = (await asSession(owner, 'GET', '/client/api-keys')).body.data.api_keys as Record<
      string,
      unknown
    >[];
    expect(listedBefore.find((k) => k['id'] === ids[0])).toMatchObject({
      created_by: adminId,
      creator: { id: adminId, email },
      personal_for: null,
    });
    expect(listedBefore.find((k) => k['id'] === ids[1])).toMatchObject({
      created_by: adminId,
      personal_for: adminId,
      enabled: true,
    });

    expect((await asSession(owner, 'DELETE', `/client/users/${adminId}`)).status).toBe(200);

    for (const key of keys) {
      const refused = await request('GET', '/client/settings', { key });
      expect(refused.status).toBe(401);
      expect((await request('PATCH', '/client/settings', { key, body: { timezone: 'UTC' } })).status).toBe(401);
    }
    // Another user's key is untouched.
    expect((await request('GET', '/client/settings', { key: ownersKey })).status).toBe(200);
    const listed = (await asSession(owner, 'GET', '/client/api-keys')).body.data.api_keys as Record<string, unknown>[];
    for (const id of ids) {
      expect(listed.find((k) => k['id'] === id)).toMatchObject({
        enabled: false,
        disabled_reason: 'holder_removed',
        creator: null,
        disabled_at: expect.any(String),
      });
    }
    const again = await asSession(owner, 'PATCH', `/client/api-keys/${ids[0]}`, { body: { enabled: true } });
    expect([again.status, again.body.errors?.[0]?.condition, again.body.errors?.[0]?.key]).toEqual([
      409,
      'state',
      'enabled',
    ]);
    expect((await request('GET', '/client/settings', { key: keys[0]! })).status).toBe(401);
  });

  it('an admin demoted to member loses its keys in the same change; its new session makes no key', async () => {
    const client = await createAccountClient('growth');
    const owner = await signIn(client.email);
    const { email, keys, ids } = await adminKeys(client);
    const adminId = await userIdOf(owner, email);

    const demoted = await asSession(owner, 'PATCH', `/client/users/${adminId}`, { body: { role: 3 } });
    expect(demoted.status).toBe(200);

    for (const key of keys) expect((await request('GET', '/client/settings', { key })).status).toBe(401);
    const listed = (await asSession(owner, 'GET', '/client/api-keys')).body.data.api_keys as Record<string, unknown>[];
    for (const id of ids) {
      expect(listed.find((k) => k['id'] === id)).toMatchObject({
        enabled: false,
        disabled_reason: 'holder_demoted',
        creator: { id: adminId },
      });
    }
    // Promoted back, the old keys stay off: the user makes new ones.
    expect((await asSession(owner, 'PATCH', `/client/users/${adminId}`, { body: { role: 2 } })).status).toBe(200);
    expect((await request('GET', '/client/settings', { key: keys[1]! })).status).toBe(401);
  });
});
