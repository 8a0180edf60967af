import { describe, expect, it, vi } from 'vitest';
import { memoryClientAdapters } from '../../../../shared/adapters/memory/client-stores.js';
import { Authenticator } from '../../../../shared/domain/auth/authenticate.js';
import { digestToken, SESSION_TOUCH_MS } from '../../../../shared/domain/auth/session-tokens.js';
import {
  completeSignIn,
  readSignInLink,
  requestSignIn,
  sendSignInLink,
} from '../../../../shared/domain/auth/sign-in.js';
import type { Queue, QueueMessages, QueueName, SystemMailMessage } from '../../../../shared/platform.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import { suspendClient } from '../../../../shared/domain/clients/suspend-client.js';
import { addUser, changeUserRole, removeUser } from '../../../../shared/domain/users/manage-users.js';
import type { SystemMail, SystemMessage } from '../../../../shared/domain/system-mail/system-mail.js';
import { AppError } from '../../../../shared/errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The Queue port, keeping the system-mail messages for the test to deliver (as send-system-mail would). */
class HeldQueue implements Queue {
  readonly held: SystemMailMessage[] = [];
  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q]): Promise<void> {
    if (queue === 'system-mail') this.held.push(message as SystemMailMessage);
  }
  async sendBatch(): Promise<void> {
    throw new Error('not used');
  }
}

const CALLBACK = 'https://api.test/api/v1/auth/callback';

async function setup() {
  const deps = memoryClientAdapters();
  const mails: SystemMessage[] = [];
  const systemMail: SystemMail = {
    send: async (m) => (mails.push(m), { kind: 'sent', providerMessageId: `m-${mails.length}` }),
  };
  const client = await createClient(deps, { email: 'owner@acme.test', name: 'Acme', plan: 'growth' });
  const queue = new HeldQueue();
  const all = { ...deps, systemMail, queue };
  const auth = new Authenticator(all, { clientIdClaim: 'client_id' }, 60_000);
  /** Delivers every held message as the queue function does; the outcomes in order. */
  const deliver = async () => {
    const outcomes = [];
    for (const message of queue.held.splice(0))
      if (message.kind === 'sign_in') outcomes.push(await sendSignInLink(all, message, CALLBACK));
    return outcomes;
  };
  /** Asks for a link for `email` from a browser holding `nonce`, delivers it, and returns the token the mail carries. */
  const linkFor = async (email: string, nonce = NONCE) => {
    await requestSignIn(all, { email, ip: '203.0.113.9', bindingNonce: nonce });
    await deliver();
    return /token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.text)![1]!;
  };
  /** A session of `email`, signed in from the browser that asked. */
  const startFor = async (email: string) => {
    const started = await completeSignIn(all, await linkFor(email), { bindingNonce: NONCE, confirmed: false });
    if (!started || started === 'unconfirmed') throw new Error('no session');
    return started;
  };
  return { deps: all, client, auth, mails, queue, deliver, linkFor, startFor };
}

const NONCE = 'n'.repeat(43);
const inBrowser = { bindingNonce: NONCE, confirmed: false };

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('sign-in links', () => {
  it('answers the request before any e-mail: it queues the address and the digest of the browser nonce only', async () => {
    const { deps, mails, queue } = await setup();
    expect(await requestSignIn(deps, { email: 'owner@acme.test', ip: '203.0.113.9', bindingNonce: NONCE })).toBe(
      'queued',
    );
    expect(await requestSignIn(deps, { email: 'nobody@acme.test', ip: '203.0.113.9', bindingNonce: NONCE })).toBe(
      'queued',
    );
    expect(mails).toEqual([]);
    expect(deps.sessions.data.links.size).toBe(0);
    expect(queue.held).toEqual([
      { kind: 'sign_in', email: 'owner@acme.test', binding_hash: digestToken(NONCE) },
      { kind: 'sign_in', email: 'nobody@acme.test', binding_hash: digestToken(NONCE) },
    ]);
  });

  it('mails an account a link whose token is stored only as its digest, bound to the browser, and mails nobody else', async () => {
    const { deps, mails, linkFor, deliver } = await setup();
    const token = await linkFor('owner@acme.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'owner@acme.test', subject: 'Your sign-in link' });
    expect(mails[0]!.text).toContain(`${CALLBACK}?token=${token}`);
    expect([...deps.sessions.data.links.keys()]).toEqual([digestToken(token)]);
    expect([...deps.sessions.data.links.values()][0]).toMatchObject({
      email: 'owner@acme.test',
      binding_hash: digestToken(NONCE),
      purpose: 'sign_in',
    });
    expect(JSON.stringify([...deps.sessions.data.links.values()])).not.toContain(token);
    await requestSignIn(deps, { email: 'nobody@acme.test', ip: '203.0.113.9', bindingNonce: NONCE });
    expect(await deliver()).toEqual(['no_account']);
    expect(mails).toHaveLength(1);
  });

  it('starts a session once per link, within 15 minutes, and records the sign-in', async () => {
    const { deps, client, linkFor } = await setup();
    const token = await linkFor('owner@acme.test');
    const started = await completeSignIn(deps, token, inBrowser);
    if (!started || started === 'unconfirmed') throw new Error('not signed in');
    expect(started.session).toMatchObject({
      client_id: client.id,
      user_id: client.owner_user_id,
      role: 1,
      email: 'owner@acme.test',
    });
    expect(started.session.session_hash).toBe(digestToken(started.sessionId));
    expect(started.session.csrf_hash).toBe(digestToken(started.csrfToken));
    expect(await completeSignIn(deps, token, inBrowser)).toBeUndefined();
    expect((await deps.users.get(client.id, client.owner_user_id))?.last_sign_in_at).toBe('2026-01-15T10:00:00.000Z');

    const late = await linkFor('owner@acme.test');
    deps.clock.advance(15 * MINUTE);
    expect(await completeSignIn(deps, late, inBrowser)).toBeUndefined();
    for (const bad of [undefined, '', 'short', 'x'.repeat(43), `${late}x`])
      expect(await completeSignIn(deps, bad, inBrowser)).toBeUndefined();
  });

  it('signs in a browser without the nonce only once the person confirmed; until then the link stays usable', async () => {
    const { deps, client, linkFor } = await setup();
    const token = await linkFor('owner@acme.test');
    for (const other of [undefined, 'o'.repeat(43), 'garbage']) {
      expect(await completeSignIn(deps, token, { bindingNonce: other, confirmed: false })).toBe('unconfirmed');
      expect(await readSignInLink(deps, token, other)).toEqual({
        email: 'owner@acme.test',
        clientName: 'Acme',
        bound: false,
        purpose: 'sign_in',
      });
    }
    expect(await readSignInLink(deps, token, NONCE)).toMatchObject({ bound: true });
    const started = await completeSignIn(deps, token, { bindingNonce: undefined, confirmed: true });
    expect(started).toMatchObject({ session: { user_id: client.owner_user_id } });
    expect(await readSignInLink(deps, token, NONCE)).toBeUndefined();
  });

  it('refuses a link whose user was removed meanwhile', async () => {
    const { deps, client, linkFor } = await setup();
    await addUser(deps, { id: client.id, plan: 'growth' }, { email: 'mia@acme.test', name: 'Mia', role: 3 });
    const token = await linkFor('mia@acme.test');
    const mia = await deps.users.findByEmail('mia@acme.test');
    await removeUser(deps, client.id, mia!.id);
    expect(await completeSignIn(deps, token, inBrowser)).toBeUndefined();
  });

  it('past 5 requests per (address, IP) in 15 minutes queues nothing more, while the address from another IP still gets its mail', async () => {
    const { deps, queue } = await setup();
    for (let i = 0; i < 5; i += 1)
      expect(await requestSignIn(deps, { email: 'owner@acme.test', ip: '198.51.100.7', bindingNonce: NONCE })).toBe(
        'queued',
      );
    expect(await requestSignIn(deps, { email: 'owner@acme.test', ip: '198.51.100.7', bindingNonce: NONCE })).toBe(
      'address_limit',
    );
    expect(queue.held).toHaveLength(5);
    expect(await requestSignIn(deps, { email: 'owner@acme.test', ip: '203.0.113.50', bindingNonce: NONCE })).toBe(
      'queued',
    );
    expect(queue.held).toHaveLength(6);
  });

  it('answers 429 past 30 requests per IP in 15 minutes, whatever the addresses; a new window starts afresh', async () => {
    const { deps } = await setup();
    for (let i = 0; i < 30; i += 1)
      await requestSignIn(deps, { email: `u${i}@acme.test`, ip: '198.51.100.9', bindingNonce: NONCE });
    const refused = await failure(
      requestSignIn(deps, { email: 'x@acme.test', ip: '198.51.100.9', bindingNonce: NONCE }),
    );
    expect(refused.status).toBe(429);
    deps.clock.advance(15 * MINUTE);
    await expect(requestSignIn(deps, { email: 'x@acme.test', ip: '198.51.100.9', bindingNonce: NONCE })).resolves.toBe(
      'queued',
    );
  });

  it('counts an IPv6 client by its /64: another address of the same network shares its limits', async () => {
    const { deps, queue } = await setup();
    for (let i = 0; i < 5; i += 1)
      await requestSignIn(deps, { email: 'owner@acme.test', ip: `2001:db8:1:2::${i + 1}`, bindingNonce: NONCE });
    expect(
      await requestSignIn(deps, { email: 'owner@acme.test', ip: '2001:db8:1:2:ffff::9', bindingNonce: NONCE }),
    ).toBe('address_limit');
    expect(await requestSignIn(deps, { email: 'owner@acme.test', ip: '2001:db8:1:3::1', bindingNonce: NONCE })).toBe(
      'queued',
    );
    expect(queue.held).toHaveLength(6);
  });

  it('throws a transient send failure so the queue delivers the message again', async () => {
    const { deps, queue } = await setup();
    const broken = { ...deps, systemMail: { send: async () => Promise.reject(new Error('Throttling')) } };
    await requestSignIn(deps, { email: 'owner@acme.test', ip: '1.2.3.4', bindingNonce: NONCE });
    await expect(
      sendSignInLink(broken, queue.held[0] as { email: string; binding_hash: string }, CALLBACK),
    ).rejects.toThrow('Throttling');
  });
});

describe('Authenticator with sessions', () => {
  it('accepts the session cookie without an Authorization header, with the user and role on the principal', async () => {
    const { deps, client, auth, startFor } = await setup();
    const started = await startFor('owner@acme.test');
    const principal = await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(principal).toMatchObject({
      clientId: client.id,
      keyId: null,
      method: 'session',
      session: { user_id: client.owner_user_id, role: 1 },
    });
    // An Authorization header wins.
    expect(
      (await auth.authenticateRequest({ authorization: `Bearer ${client.api_key}`, sessionId: started.sessionId }))
        .method,
    ).toBe('api_key');
  });

  it('reads only the session on a warm container: the client comes from the cache', async () => {
    const { deps, auth, startFor } = await setup();
    const started = await startFor('owner@acme.test');
    const clientReads = vi.spyOn(deps.clients, 'get');
    const sessionReads = vi.spyOn(deps.sessions, 'getSession');
    for (let i = 0; i < 3; i += 1) await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(sessionReads).toHaveBeenCalledTimes(3);
    expect(clientReads).toHaveBeenCalledTimes(1);
  });

  it('ends a session after 12 h idle, and moves the idle expiry forward at most every 15 minutes', async () => {
    const { deps, auth, startFor } = await setup();
    const started = await startFor('owner@acme.test');
    const touches = vi.spyOn(deps.sessions, 'touch');
    deps.clock.advance(SESSION_TOUCH_MS - 1);
    await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(touches).not.toHaveBeenCalled();
    deps.clock.advance(1);
    await auth.authenticateRequest({ sessionId: started.sessionId });
    expect(touches).toHaveBeenCalledTimes(1);
    expect((await deps.sessions.getSession(started.session.session_hash))?.idle_expires_at).toBe(
      new Date(deps.clock.now().getTime() + 12 * HOUR).toISOString(),
    );
    deps.clock.advance(12 * HOUR);
    expect((await failure(auth.authenticateRequest({ sessionId: started.sessionId }))).status).toBe(401);
  });

  it('ends a session 7 days after the sign-in however often it is used', async () => {
    const { deps, auth, startFor } = await setup();
    const started = await startFor('owner@acme.test');
    for (let h = 0; h < 7 * 24 - 1; h += 1) {
      deps.clock.advance(HOUR);
      await auth.authenticateRequest({ sessionId: started.sessionId });
    }
    deps.clock.advance(HOUR);
    expect((await failure(auth.authenticateRequest({ sessionId: started.sessionId }))).status).toBe(401);
  });

  it('refuses a removed user’s, a re-roled user’s and a signed-out session at once, and a suspended client’s with 403', async () => {
    const { deps, client, auth, startFor } = await setup();
    await addUser(deps, { id: client.id, plan: 'growth' }, { email: 'mia@acme.test', name: 'Mia', role: 3 });
    await addUser(deps, { id: client.id, plan: 'growth' }, { email: 'vic@acme.test', name: 'Vic', role: 4 });
    const mia = await startFor('mia@acme.test');
    const vic = await startFor('vic@acme.test');
    const owner = await startFor('owner@acme.test');
    await removeUser(deps, client.id, mia.session.user_id);
    await changeUserRole(deps, client.id, vic.session.user_id, 2);
    await deps.sessions.end(owner.session);
    for (const s of [mia, vic, owner])
      expect((await failure(auth.authenticateRequest({ sessionId: s.sessionId }))).status).toBe(401);
    const again = await startFor('vic@acme.test');
    expect((await auth.authenticateRequest({ sessionId: again.sessionId })).session?.role).toBe(2);
    await suspendClient(deps, client.id);
    expect(
      (
        await failure(
          new Authenticator(deps, { clientIdClaim: 'client_id' }, 0).authenticateRequest({
            sessionId: again.sessionId,
          }),
        )
      ).status,
    ).toBe(403);
  });

  it('refuses a malformed or unknown session id without a lookup', async () => {
    const { deps, auth } = await setup();
    const reads = vi.spyOn(deps.sessions, 'getSession');
    for (const id of ['', 'abc', 'x'.repeat(44)])
      expect((await failure(auth.authenticateRequest({ sessionId: id }))).status).toBe(401);
    expect(reads).not.toHaveBeenCalled();
    expect((await failure(auth.authenticateRequest({ sessionId: 'A'.repeat(43) }))).status).toBe(401);
  });
});

describe('API key last_used_at', () => {
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
