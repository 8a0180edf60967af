import { describe, expect, it } from 'vitest';
import { call, request } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { sesMailsTo } from './support/ses-mailbox.js';
import {
  addTestUser,
  asSession,
  cookieOf,
  createAccountClient,
  bindingCookieOf,
  openLink,
  ownLoopbackAddress,
  pressSignIn,
  raw,
  sessionOf,
  signIn,
  signInLinkOf,
} from './support/sessions.js';

describe('passwordless sign-in', () => {
  it('e-mails a one-time link that starts a session in cookies, and the session is the user of /auth/me', async () => {
    const client = await createAccountClient('growth');
    const from = ownLoopbackAddress();

    const asked = await raw('POST', '/auth/sign-in', { body: { email: client.email.toUpperCase() }, from });
    expect(asked.status).toBe(202);
    expect(asked.body.data).toEqual({});
    const link = await signInLinkOf(client.email);
    const [mail] = await sesMailsTo(client.email);
    expect(mail!.from).toBe('accounts@email-lifecycle.example');
    // A transactional mail of the service: no List-Unsubscribe.
    expect((mail!.headers ?? []).map((h) => h.name.toLowerCase())).not.toContain('list-unsubscribe');
    expect(mail!.body.html).toContain(link.replace(/&/g, '&amp;'));

    const binding = bindingCookieOf(asked.setCookies);
    expect((await openLink(link, from, binding)).status).toBe(200);
    const answer = await pressSignIn(link, { cookie: binding, from });
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe('/app');
    expect(answer.headers['cache-control']).toBe('no-store');
    const [sessionCookie, csrfCookie] = [
      answer.setCookies.find((c) => c.startsWith('els_session='))!,
      answer.setCookies.find((c) => c.startsWith('els_csrf='))!,
    ];
    // The session: HttpOnly, SameSite=Lax, the API's path only, 7 days; not Secure over the local runtime's http.
    expect(sessionCookie).toMatch(
      /^els_session=[A-Za-z0-9_-]{43}; Path=\/api\/v1; Max-Age=604800; HttpOnly; SameSite=Lax$/,
    );
    // The CSRF token: readable by the dashboard's script (not HttpOnly), on every path.
    expect(csrfCookie).toMatch(/^els_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; SameSite=Lax$/);

    const session = {
      cookie: `els_session=${cookieOf(answer.setCookies, 'els_session')}`,
      csrf: cookieOf(answer.setCookies, 'els_csrf')!,
      setCookies: [],
    };
    const me = await asSession(session, 'GET', '/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      user: { id: client.owner_user_id, email: client.email, role: 1, role_name: 'owner', invited_by: null },
      client: { id: client.id, client_id: client.client_id, plan: 'growth', status: 'active' },
    });
    expect(me.body.data.user.last_sign_in_at).not.toBeNull();

    // The link works once: the same link again, a tampered one, none at all — one page, never a 500.
    for (const path of [
      link,
      link.replace(/token=./, 'token=A'),
      link.replace(/\?token=.*/, ''),
      link.replace(/token=.*/, 'token=%00%ff'),
    ]) {
      for (const again of [await openLink(path, from, binding), await pressSignIn(path, { cookie: binding, from })]) {
        expect(again.status).toBe(400);
        expect(again.headers['content-type']).toContain('text/html');
        expect(again.text).toContain('This sign-in link cannot be used');
        expect(again.setCookies).toEqual([]);
      }
    }
  });

  it('answers the same 202, in about the same time, whether or not the address has an account, and mails only an account', async () => {
    const client = await createAccountClient('free');
    const nobody = `nobody-${Date.now()}@test.example`;
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await raw('POST', '/auth/sign-in', { body: { email }, from: ownLoopbackAddress() });
      return { res, ms: performance.now() - started };
    };
    const runs: Awaited<ReturnType<typeof timed>>[] = [];
    // Five of each, alternated, so a load spike on the machine hits both.
    for (let i = 0; i < 5; i += 1) runs.push(await timed(client.email), await timed(nobody));
    const known = runs.filter((_, i) => i % 2 === 0);
    const unknown = runs.filter((_, i) => i % 2 === 1);
    const strip = (r: (typeof runs)[number]) => ({
      status: r.res.status,
      data: r.res.body.data,
      message: r.res.body.message,
      errors: r.res.body.errors,
    });
    expect(new Set(runs.map((r) => JSON.stringify(strip(r)))).size).toBe(1);
    expect(strip(known[0]!)).toEqual({ status: 202, data: {}, message: expect.any(String), errors: [] });
    // No padding: the request does the same work for both (two counter writes, one queue send); the mail comes later.
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[2]!;
    expect(Math.abs(median(known.map((r) => r.ms)) - median(unknown.map((r) => r.ms)))).toBeLessThan(100);
    await signInLinkOf(client.email, 5);
    expect(await sesMailsTo(nobody)).toEqual([]);
  });

  it('limits sign-in mails per address and IP (5 in 15 min: then 202 and no mail), and requests per IP (30: then 429)', async () => {
    const client = await createAccountClient('free');
    const nobody = `nobody-${Date.now()}@test.example`;
    for (const email of [client.email, nobody]) {
      const from = ownLoopbackAddress();
      const answers = [];
      for (let i = 0; i < 6; i += 1)
        answers.push((await raw('POST', '/auth/sign-in', { body: { email }, from })).status);
      expect(answers).toEqual([202, 202, 202, 202, 202, 202]);
    }
    await signInLinkOf(client.email, 5);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await sesMailsTo(client.email)).toHaveLength(5);
    const from = ownLoopbackAddress();
    const perIp = await Promise.all(
      Array.from({ length: 31 }, (_, i) =>
        raw('POST', '/auth/sign-in', { body: { email: `ip-${i}-${Date.now()}@test.example` }, from }),
      ),
    );
    expect(perIp.filter((r) => r.status === 202)).toHaveLength(30);
    const refused = perIp.find((r) => r.status === 429)!;
    expect(refused.body.errors).toEqual([
      {
        condition: 'rate_limited',
        key: 'request',
        error: expect.stringMatching(/^Too many sign-in requests; try again in \d+ s$/),
      },
    ]);
  });

  it('refuses a malformed address with a 422 naming the field', async () => {
    const res = await raw('POST', '/auth/sign-in', { body: { email: 'not-an-address' }, from: ownLoopbackAddress() });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ condition: 'format', key: 'email', error: 'Must be a valid e-mail address' }]);
  });

  it('authenticates /client routes with the session; a change needs X-CSRF-Token equal to the els_csrf cookie', async () => {
    const client = await createAccountClient('growth');
    const session = await signIn(client.email);
    expect((await asSession(session, 'GET', '/client/contacts')).status).toBe(200);
    const made = await asSession(session, 'POST', '/client/contacts', { body: { email: 'ada@example.com' } });
    expect(made.status).toBe(201);
    // Without the header, with another value, with a header but no cookie, with a token of another session: 403.
    const other = await signIn(client.email);
    const refused = [
      await asSession(session, 'POST', '/client/contacts', { body: { email: 'b@example.com' }, csrf: false }),
      await asSession(session, 'POST', '/client/contacts', {
        body: { email: 'b@example.com' },
        headers: { 'x-csrf-token': 'A'.repeat(43) },
      }),
      await raw('POST', '/client/contacts', {
        body: { email: 'b@example.com' },
        headers: { cookie: session.cookie.split(';')[0]!, 'x-csrf-token': session.csrf },
      }),
      await raw('POST', '/client/contacts', {
        body: { email: 'b@example.com' },
        headers: { cookie: `${session.cookie.split(';')[0]!}; els_csrf=${other.csrf}`, 'x-csrf-token': other.csrf },
      }),
      await asSession(session, 'DELETE', `/client/contacts/${made.body.data.id}`, { csrf: false }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([
        { condition: 'forbidden', key: 'csrf', error: expect.stringContaining('X-CSRF-Token') },
      ]);
    }
    expect((await asSession(session, 'GET', '/client/contacts/b@example.com')).status).toBe(404);
    // An Authorization header wins over the cookie (no CSRF for a bearer token, which browsers never send by themselves).
    const key = await createTestClient();
    const bearer = await raw('POST', '/client/contacts', {
      body: { email: 'c@example.com' },
      headers: { authorization: `Bearer ${key.api_key}`, cookie: session.cookie },
    });
    expect(bearer.status).toBe(201);
    expect((await call('GET', '/client/contacts/c@example.com', { key: key.api_key })).status).toBe(200);
    expect((await asSession(session, 'GET', '/client/contacts/c@example.com')).status).toBe(404);
  });

  it('signs out: the session ends at once and its cookies expire', async () => {
    const client = await createAccountClient('free');
    const session = await signIn(client.email);
    expect((await asSession(session, 'POST', '/auth/sign-out', { csrf: false })).status).toBe(403);
    const out = await asSession(session, 'POST', '/auth/sign-out');
    expect(out.status).toBe(200);
    expect(out.setCookies).toEqual([
      'els_session=; Path=/api/v1; Max-Age=0; HttpOnly; SameSite=Lax',
      'els_csrf=; Path=/; Max-Age=0; SameSite=Lax',
    ]);
    const after = await asSession(session, 'GET', '/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.errors[0]).toMatchObject({ condition: 'unauthorized', key: 'authorization' });
    for (const cookie of ['els_session=garbage', `els_session=${'A'.repeat(43)}`]) {
      expect((await raw('GET', '/client/contacts', { headers: { cookie } })).status).toBe(401);
    }
  });

  it('keeps JWT and API keys out of the session-only routes (403) and keeps them working elsewhere', async () => {
    const client = await createAccountClient('free');
    for (const path of ['/auth/me', '/client/users']) {
      const res = await request('GET', path, { key: client.api_key });
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([{ condition: 'forbidden', key: 'authorization', error: expect.any(String) }]);
    }
    expect((await request('GET', '/client/contacts', { key: client.api_key })).status).toBe(200);
  });
});

describe('users and roles', () => {
  it('has the client owner from creation; the owner invites a member who signs in with the invitation link', async () => {
    const client = await createAccountClient('starter');
    const owner = await signIn(client.email);
    const listed = await asSession(owner, 'GET', '/client/users');
    expect(listed.status).toBe(200);
    expect(listed.body.data.users).toEqual([
      expect.objectContaining({ id: client.owner_user_id, email: client.email, role: 1, role_name: 'owner' }),
    ]);

    const memberEmail = `member-${Date.now()}@test.example`;
    const invited = await asSession(owner, 'POST', '/client/users', {
      body: { email: ` ${memberEmail.toUpperCase()} `, name: 'Mia', role: 3 },
    });
    expect(invited.status).toBe(202);
    expect(invited.body.data).toEqual({
      email: memberEmail,
      name: 'Mia',
      role: 3,
      role_name: 'member',
      invited_by: client.owner_user_id,
      valid_until: expect.any(String),
    });
    expect((await asSession(owner, 'GET', '/client/users')).body.data.users).toContainEqual(
      expect.objectContaining({ email: memberEmail, last_sign_in_at: null }),
    );
    const invitationLink = await signInLinkOf(memberEmail);
    const [invitation] = await sesMailsTo(memberEmail);
    expect(invitation!.subject).toBe(`You are invited to Account ${client.email} on Email Lifecycle`);
    // The invitee never asked in this browser: the page names the account and the client, and asks.
    const page = await openLink(invitationLink);
    expect(page.status).toBe(200);
    expect(page.text).toContain(memberEmail);
    expect(page.text).toContain(`Account ${client.email.replace(/&/g, '&amp;')}`);
    expect((await pressSignIn(invitationLink)).status).toBe(200);
    const member = sessionOf(await pressSignIn(invitationLink, { confirm: true }));
    expect((await asSession(member, 'GET', '/auth/me')).body.data.user).toMatchObject({ email: memberEmail, role: 3 });

    // A member reads users and changes contacts, but cannot invite, change settings or keys.
    expect((await asSession(member, 'GET', '/client/users')).body.data.users).toHaveLength(2);
    expect((await asSession(member, 'POST', '/client/contacts', { body: { email: 'ada@example.com' } })).status).toBe(
      201,
    );
    for (const [method, path, body] of [
      ['POST', '/client/users', { email: 'x@test.example', name: 'X', role: 4 }],
      ['PATCH', '/client/settings', { timezone: 'Europe/Paris' }],
      ['POST', '/client/api-keys/rotate', undefined],
    ] as const) {
      const res = await asSession(member, method, path, { body });
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([
        { condition: 'forbidden', key: 'role', error: 'The member role may not do this' },
      ]);
    }
  });

  it('enforces the plan’s max_users and one account per address', async () => {
    const client = await createAccountClient('starter'); // 3 users
    const owner = await signIn(client.email);
    expect(
      (await asSession(owner, 'POST', '/client/users', { body: { email: client.email, name: 'Me', role: 2 } })).body
        .errors,
    ).toEqual([{ condition: 'unique', key: 'email', error: 'This address already has an account in this client' }]);
    for (const role of [2, 4]) {
      expect(
        (
          await asSession(owner, 'POST', '/client/users', {
            body: { email: `u${role}-${Date.now()}@test.example`, name: 'U', role },
          })
        ).status,
      ).toBe(202);
    }
    const over = await asSession(owner, 'POST', '/client/users', {
      body: { email: `over-${Date.now()}@test.example`, name: 'Over', role: 3 },
    });
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual([
      { condition: 'max', key: 'users', error: 'The plan allows at most 3 users; remove one or upgrade the plan' },
    ]);
    const owned = await asSession(owner, 'POST', '/client/users', {
      body: { email: `o-${Date.now()}@test.example`, name: 'O', role: 1 },
    });
    expect(owned.status).toBe(422);
    expect(owned.body.errors[0]).toMatchObject({ key: 'role' });
  });

  it('transfers ownership in one step; the owner can be neither demoted directly nor removed', async () => {
    const client = await createAccountClient('growth');
    const adminEmail = await addTestUser(client, 2);
    const owner = await signIn(client.email);
    const admin = await signIn(adminEmail);
    const adminId = (await asSession(admin, 'GET', '/auth/me')).body.data.user.id as number;

    for (const [method, body] of [
      ['PATCH', { role: 2 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await asSession(owner, method, `/client/users/${client.owner_user_id}`, { body });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({ condition: 'state' });
    }
    const transferred = await asSession(owner, 'PATCH', `/client/users/${adminId}`, { body: { role: 1 } });
    expect(transferred.status).toBe(200);
    expect(transferred.body.data).toMatchObject({ id: adminId, role: 1, role_name: 'owner' });
    // Both changed users' sessions ended; signed in again, each has its new role.
    expect((await asSession(owner, 'GET', '/auth/me')).status).toBe(401);
    expect((await asSession(admin, 'GET', '/auth/me')).status).toBe(401);
    const newOwner = await signIn(adminEmail);
    const users = (await asSession(newOwner, 'GET', '/client/users')).body.data.users as { id: number; role: number }[];
    expect(users.map((u) => [u.id, u.role])).toEqual([
      [client.owner_user_id, 2],
      [adminId, 1],
    ]);
    const formerOwner = await signIn(client.email);
    expect(
      (
        await asSession(formerOwner, 'POST', '/client/users', {
          body: { email: `x-${Date.now()}@test.example`, name: 'X', role: 4 },
        })
      ).status,
    ).toBe(403);
  });

  it('removes a user: its sessions end at once and its address is free again', async () => {
    const client = await createAccountClient('growth');
    const viewerEmail = await addTestUser(client, 4);
    const owner = await signIn(client.email);
    const viewer = await signIn(viewerEmail);
    const viewerId = (await asSession(viewer, 'GET', '/auth/me')).body.data.user.id as number;
    expect((await asSession(viewer, 'POST', '/client/contacts', { body: { email: 'v@example.com' } })).status).toBe(
      403,
    );

    const removed = await asSession(owner, 'DELETE', `/client/users/${viewerId}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ id: viewerId, email: viewerEmail, role: 4 });
    expect((await asSession(viewer, 'GET', '/client/contacts')).status).toBe(401);
    expect((await asSession(owner, 'DELETE', `/client/users/${viewerId}`)).status).toBe(404);
    expect(
      (await asSession(owner, 'POST', '/client/users', { body: { email: viewerEmail, name: 'Back', role: 3 } })).status,
    ).toBe(202);
  });

  it('answers another client’s user like a missing one (404)', async () => {
    const a = await createAccountClient('growth');
    const b = await createAccountClient('growth');
    const bUser = await addTestUser(b, 3);
    const ownerA = await signIn(a.email);
    const ownerB = await signIn(b.email);
    const bUserId = (
      (await asSession(ownerB, 'GET', '/client/users')).body.data.users as { id: number; email: string }[]
    ).find((u) => u.email === bUser)!.id;
    for (const [method, body] of [
      ['PATCH', { role: 2 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await asSession(ownerA, method, `/client/users/${bUserId}`, { body });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([{ condition: 'not_found', key: 'id', error: 'No such user' }]);
    }
    expect(((await asSession(ownerA, 'GET', '/client/users')).body.data.users as unknown[]).length).toBe(1);
    expect((await asSession(ownerB, 'GET', '/auth/me')).body.data.client.id).toBe(b.id);
  });

  it('records the dashboard user in a workflow customization’s audit', async () => {
    const client = await createAccountClient('growth');
    const owner = await signIn(client.email);
    expect(
      (await asSession(owner, 'PATCH', '/client/workflows/1/customization', { body: { delay_minutes: 5 } })).status,
    ).toBe(200);
    const audit = await asSession(owner, 'GET', '/client/workflows/1/customization/audit');
    expect(audit.body.data.entries[0]).toMatchObject({
      auth_method: 'session',
      user_id: client.owner_user_id,
      key_id: null,
    });
  });

  it('shows the real current_user_count and roles in the settings', async () => {
    const client = await createAccountClient('growth');
    await addTestUser(client, 3);
    const patched = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { timezone: 'Europe/Paris' },
    });
    expect(patched.status).toBe(200);
    const got = await call('GET', '/client/settings', { key: client.api_key });
    expect(got.body.data.client.current_user_count).toBe(2);
    expect(
      got.body.data.client.roles.map((r: { user_id: number; role: number }) => [
        r.user_id === client.owner_user_id,
        r.role,
      ]),
    ).toEqual([
      [true, 1],
      [false, 3],
    ]);
  });
});
