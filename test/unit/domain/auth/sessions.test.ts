import { describe, expect, it, vi } from 'vitest';
import { memoryClientAdapters } from '../../../../shared/adapters/memory/client-stores.js';
import { Authenticator } from '../../../../shared/domain/auth/authenticate.js';
import { digestToken, SESSION_TOUCH_MS } from '../../../../shared/domain/auth/session-tokens.js';
import { completeSignIn, requestSignIn } from '../../../../shared/domain/auth/sign-in.js';
import { createClient, suspendClient } from '../../../../shared/domain/clients/create-client.js';
import { addUser, changeUserRole, removeUser } from '../../../../shared/domain/users/manage-users.js';
import type { SystemMail, SystemMessage } from '../../../../shared/domain/system-mail/system-mail.js';
import { AppError } from '../../../../shared/errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function setup() {
  const deps = memoryClientAdapters();
  const mails: SystemMessage[] = [];
  const systemMail: SystemMail = { send: async (m) => (mails.push(m), { kind: 'sent', providerMessageId: `m-${mails.length}` }) };
  const client = await createClient(deps, { email: 'owner@acme.test', name: 'Acme', plan: 'growth' });
  const all = { ...deps, systemMail };
  const auth = new Authenticator(all, { clientIdClaim: 'client_id' }, 60_000);
  /** Asks for a link for `email` and returns the token the mail carries. */
  const linkFor = async (email: string) => {
    await requestSignIn(all, { email, ip: '203.0.113.9' }, 'https://api.test/api/v1/auth/callback', () => undefined);
    return /token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.text)![1]!;
  };
  return { deps: all, client, auth, mails, linkFor };
}

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('sign-in links (issue 23 §2)', () => {
  it('mails an account a link whose token is stored only as its digest, and mails nobody else', async () => {
    const { deps, mails, linkFor } = await setup();
    const token = await linkFor('OWNER@acme.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'owner@acme.test', subject: 'Your sign-in link' });
    expect(mails[0]!.text).toContain(`https://api.test/api/v1/auth/callback?token=${token}`);
    expect([...deps.sessions.data.links.keys()]).toEqual([digestToken(token)]);
    expect(JSON.stringify([...deps.sessions.data.links.values()])).not.toContain(token);
    const outcome = await requestSignIn(deps, { email: 'nobody@acme.test', ip: '203.0.113.9' }, 'https://x', () => undefined);
    expect(outcome).toBe('no_account');
    expect(mails).toHaveLength(1);
  });

  it('starts a session once per link, within 15 minutes, and records the sign-in', async () => {
    const { deps, client, linkFor } = await setup();
    const token = await linkFor('owner@acme.test');
    const started = await completeSignIn(deps, token);
    expect(started?.session).toMatchObject({ client_id: client.id, user_id: client.owner_user_id, role: 1, email: 'owner@acme.test' });
    expect(started!.session.session_hash).toBe(digestToken(started!.sessionId));
    expect(started!.session.csrf_hash).toBe(digestToken(started!.csrfToken));
    expect(await completeSignIn(deps, token)).toBeUndefined();
    expect((await deps.users.get(client.id, client.owner_user_id))?.last_sign_in_at).toBe('2026-01-15T10:00:00.000Z');

    const late = await linkFor('owner@acme.test');
    deps.clock.advance(15 * MINUTE);
    expect(await completeSignIn(deps, late)).toBeUndefined();
    for (const bad of [undefined, '', 'short', 'x'.repeat(43), `${late}x`]) expect(await completeSignIn(deps, bad)).toBeUndefined();
  });

  it('refuses a link whose user was removed meanwhile', async () => {
    const { deps, client, linkFor } = await setup();
    await addUser(deps, { id: client.id, plan: 'growth' }, { email: 'mia@acme.test', name: 'Mia', role: 3 });
    const token = await linkFor('mia@acme.test');
    const mia = await deps.users.findByEmail('mia@acme.test');
    await removeUser(deps, client.id, mia!.id);
    expect(await completeSignIn(deps, token)).toBeUndefined();
  });

  it('counts requests per address and per IP: the sixth for an address in 15 minutes is a 429, account or not', async () => {
    const { deps } = await setup();
    for (const email of ['owner@acme.test', 'nobody@acme.test']) {
      for (let i = 0; i < 5; i += 1) await requestSignIn(deps, { email, ip: `198.51.100.${i}` }, 'https://x', () => undefined);
      const refused = await failure(requestSignIn(deps, { email, ip: '198.51.100.99' }, 'https://x', () => undefined));
      expect(refused.status).toBe(429);
    }
    // A new window starts afresh.
    deps.clock.advance(15 * MINUTE);
    await expect(requestSignIn(deps, { email: 'nobody@acme.test', ip: '198.51.100.1' }, 'https://x', () => undefined)).resolves.toBe('no_account');
  });

  it('answers the same outcome shape and never throws when the e-mail cannot be sent', async () => {
    const { deps } = await setup();
    const errors: unknown[] = [];
    const broken = { ...deps, systemMail: { send: async () => Promise.reject(new Error('Throttling')) } };
    await expect(requestSignIn(broken, { email: 'owner@acme.test', ip: '1.2.3.4' }, 'https://x', (e) => errors.push(e))).resolves.toBe('failed');
    expect(errors).toHaveLength(1);
  });
});

describe('Authenticator with sessions', () => {
  it('accepts the session cookie without an Authorization header, with the user and role on the principal', async () => {
    const { deps, client, auth, linkFor } = await setup();
    const started = (await completeSignIn(deps, await linkFor('owner@acme.test')))!;
    const principal = await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(principal).toMatchObject({ clientId: client.id, keyId: null, method: 'session', session: { user_id: client.owner_user_id, role: 1 } });
    // An Authorization header wins.
    expect((await auth.authenticateRequest({ authorization: `Bearer ${client.api_key}`, sessionId: started.sessionId })).method).toBe('api_key');
  });

  it('reads only the session on a warm container: the client comes from the cache', async () => {
    const { deps, auth, linkFor } = await setup();
    const started = (await completeSignIn(deps, await linkFor('owner@acme.test')))!;
    const clientReads = vi.spyOn(deps.clients, 'get');
    const sessionReads = vi.spyOn(deps.sessions, 'getSession');
    for (let i = 0; i < 3; i += 1) await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(sessionReads).toHaveBeenCalledTimes(3);
    expect(clientReads).toHaveBeenCalledTimes(1);
  });

  it('ends a session after 12 h idle, and moves the idle expiry forward at most every 15 minutes', async () => {
    const { deps, auth, linkFor } = await setup();
    const started = (await completeSignIn(deps, await linkFor('owner@acme.test')))!;
    const touches = vi.spyOn(deps.sessions, 'touch');
    deps.clock.advance(SESSION_TOUCH_MS - 1);
    await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(touches).not.toHaveBeenCalled();
    deps.clock.advance(1);
    await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(touches).toHaveBeenCalledTimes(1);
    expect((await deps.sessions.getSession(started.session.session_hash))?.idle_expires_at).toBe(new Date(deps.clock.now().getTime() + 12 * HOUR).toISOString());
    deps.clock.advance(12 * HOUR);
    expect((await failure(auth.authenticateRequest({ sessionId: started.sessionId }))).status).toBe(401);
  });

  it('ends a session 7 days after the sign-in however often it is used', async () => {
    const { deps, auth, linkFor } = await setup();
    const started = (await completeSignIn(deps, await linkFor('owner@acme.test')))!;
    for (let h = 0; h < 7 * 24 - 1; h += 1) {
      deps.clock.advance(HOUR);
      await auth.authenticateRequest({ sessionId: started.sessionId });
    }
    deps.clock.advance(HOUR);
    expect((await failure(auth.authenticateRequest({ sessionId: started.sessionId }))).status).toBe(401);
  });

  it('refuses a removed user’s, a re-roled user’s and a signed-out session at once, and a suspended client’s with 403', async () => {
    const { deps, client, auth, linkFor } = await setup();
    await addUser(deps, { id: client.id, plan: 'growth' }, { email: 'mia@acme.test', name: 'Mia', role: 3 });
    await addUser(deps, { id: client.id, plan: 'growth' }, { email: 'vic@acme.test', name: 'Vic', role: 4 });
    const mia = (await completeSignIn(deps, await linkFor('mia@acme.test')))!;
    const vic = (await completeSignIn(deps, await linkFor('vic@acme.test')))!;
    const owner = (await completeSignIn(deps, await linkFor('owner@acme.test')))!;
    await removeUser(deps, client.id, mia.session.user_id);
    await changeUserRole(deps, client.id, vic.session.user_id, 2);
    await deps.sessions.end(owner.session);
    for (const s of [mia, vic, owner]) expect((await failure(auth.authenticateRequest({ sessionId: s.sessionId }))).status).toBe(401);
    const again = (await completeSignIn(deps, await linkFor('vic@acme.test')))!;
    expect((await auth.authenticateRequest({ sessionId: again.sessionId })).session?.role).toBe(2);
    await suspendClient(deps, client.id);
    expect((await failure(new Authenticator(deps, { clientIdClaim: 'client_id' }, 0).authenticateRequest({ sessionId: again.sessionId }))).status).toBe(403);
  });

  it('refuses a malformed or unknown session id without a lookup', async () => {
    const { deps, auth } = await setup();
    const reads = vi.spyOn(deps.sessions, 'getSession');
    for (const id of ['', 'abc', 'x'.repeat(44)]) expect((await failure(auth.authenticateRequest({ sessionId: id }))).status).toBe(401);
    expect(reads).not.toHaveBeenCalled();
    expect((await failure(auth.authenticateRequest({ sessionId: 'A'.repeat(43) }))).status).toBe(401);
  });
});

describe('API key last_used_at (issue 23 §3)', () => {
  it('is written on a key’s first use and then at most once an hour (each lookup here misses the cache)', async () => {
    const { deps, client } = await setup();
    const uncached = new Authenticator(deps, { clientIdClaim: 'client_id' }, 0);
    const writes = vi.spyOn(deps.apiKeys, 'markUsed');
    const stamp = async () => (await deps.apiKeys.list(client.id))[0]!.last_used_at;
    await uncached.authenticate(client.api_key);
    expect(await stamp()).toBe('2026-01-15T10:00:00.000Z');
    deps.clock.advance(59 * MINUTE);
    await uncached.authenticate(client.api_key);
    expect(writes).toHaveBeenCalledTimes(1);
    deps.clock.advance(MINUTE + 1);
    await uncached.authenticate(client.api_key);
    expect(writes).toHaveBeenCalledTimes(2);
    expect(await stamp()).toBe('2026-01-15T11:00:00.001Z');
  });
});
