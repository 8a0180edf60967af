import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLambdaContext } from '../../local/lambda-context.js';
import { toSqsEvent } from '../../local/queue-functions.js';
import { setContainer } from '../../shared/composition/container.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { queue as queueProvider } from '../../shared/composition/providers/queue.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { inviteUser } from '../../shared/domain/users/invite-user.js';
import { sesMailsTo } from './support/ses-mailbox.js';
import { engineContainer, FakeMailer, RecordingQueue, throttlingError } from './support/engine-components.js';
import {
  asSession,
  bindingCookieOf,
  cookieOf,
  createAccountClient,
  openLink,
  ownLoopbackAddress,
  pressSignIn,
  raw,
  sessionOf,
  signIn,
  signInLinkOf,
} from './support/sessions.js';

vi.hoisted(() => {
  process.env['POWERTOOLS_LOG_LEVEL'] = process.env['INTEGRATION_LOG_LEVEL'] ?? 'SILENT';
});

// Each test waits for mails that the queue sends after the answers; on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => setContainer(undefined));

/** Asks for a link for `email` as a browser at `from` would; the link of the mail and the browser's binding cookie. */
async function askForLink(
  email: string,
  from = ownLoopbackAddress(),
): Promise<{ link: string; cookie: string; from: string }> {
  const before = (await sesMailsTo(email)).length;
  const asked = await raw('POST', '/auth/sign-in', { body: { email }, from });
  expect(asked.status).toBe(202);
  return { link: await signInLinkOf(email, before + 1), cookie: bindingCookieOf(asked.setCookies), from };
}

describe('sign-in links that mail scanners cannot burn', () => {
  it('consumes nothing on HEAD or GET: after a scanner’s HEAD and GET, the person’s button still signs in', async () => {
    const client = await createAccountClient('free');
    const { link, cookie, from } = await askForLink(client.email);
    const url = new URL(link);
    // A scanner: no cookie, HEAD then GET.
    const head = await raw('HEAD', `!${url.pathname}${url.search}`);
    expect(head.status).toBe(200);
    expect(head.setCookies).toEqual([]);
    const scanned = await openLink(link);
    expect(scanned.status).toBe(200);
    expect(scanned.setCookies).toEqual([]);
    // The person: the page (no script, strict CSP, a labelled button that posts the token), then the button.
    const page = await openLink(link, from, cookie);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toMatch(
      /<form method="post" action="\/api\/v1\/auth\/callback"><input type="hidden" name="token" value="[A-Za-z0-9_-]{43}"><button type="submit">Sign in<\/button><\/form>/,
    );
    expect(page.text).toContain('name="viewport"');
    const signedIn = await pressSignIn(link, { cookie, from });
    expect(signedIn.status).toBe(303);
    expect((await asSession(sessionOf(signedIn), 'GET', '/auth/me')).body.data.user.email).toBe(client.email);
    // The binding cookie ends with the sign-in.
    expect(signedIn.setCookies).toContain(
      'els_signin=; Path=/api/v1/auth/callback; Max-Age=0; HttpOnly; SameSite=Strict',
    );
  });
});

describe('login CSRF: a link works silently only in the browser that asked for it', () => {
  it('does not sign a victim’s browser in to the attacker’s account with the attacker’s fresh link', async () => {
    // Prepare: the attacker asks for a link to its own account, in its own browser.
    const attacker = await createAccountClient('free');
    const { link } = await askForLink(attacker.email);
    const victim = await createAccountClient('free');
    const victimSession = await signIn(victim.email);
    const victimCookie = `${victimSession.cookie}; els_signin=${'v'.repeat(43)}`;

    // Act: a cross-site page navigates the victim's browser to the link, then posts its form, in every way it can.
    const opened = await openLink(link, undefined, victimCookie);
    const crossSite = await pressSignIn(link, {
      cookie: victimCookie,
      confirm: true,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    const sameSite = await pressSignIn(link, {
      cookie: victimCookie,
      confirm: true,
      headers: { 'sec-fetch-site': 'same-site' },
    });
    const otherOrigin = await raw('POST', '/auth/callback', {
      form: { token: new URL(link).searchParams.get('token')!, confirm: 'yes' },
      headers: { cookie: victimCookie, origin: 'https://evil.example' },
    });
    const nullOrigin = await raw('POST', '/auth/callback', {
      form: { token: new URL(link).searchParams.get('token')! },
      headers: { cookie: victimCookie, origin: 'null' },
    });
    const unconfirmed = await pressSignIn(link, { cookie: victimCookie });

    // Assess: the page names the attacker's account and asks; nothing signs in; the victim's session is untouched.
    expect(opened.status).toBe(200);
    expect(opened.text).toContain(attacker.email);
    expect(opened.text).toContain(`Account ${attacker.email}`);
    expect(opened.text).toContain('was not asked for in this browser');
    expect(opened.text).toContain('name="confirm" value="yes"');
    for (const refused of [crossSite, sameSite, otherOrigin, nullOrigin]) {
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Sign-in refused');
      expect(cookieOf(refused.setCookies, 'els_session')).toBeUndefined();
    }
    expect(unconfirmed.status).toBe(200);
    expect(cookieOf(unconfirmed.setCookies, 'els_session')).toBeUndefined();
    expect((await asSession(victimSession, 'GET', '/auth/me')).body.data.user.email).toBe(victim.email);
    // Nothing was consumed: only an explicit confirmation on this origin would sign in.
    const confirmed = await pressSignIn(link, { confirm: true });
    expect(confirmed.status).toBe(303);
    expect((await asSession(sessionOf(confirmed), 'GET', '/auth/me')).body.data.user.email).toBe(attacker.email);
  });

  it('signs in on another device after the page named the account and the person confirmed', async () => {
    const client = await createAccountClient('free');
    const { link } = await askForLink(client.email);
    const page = await openLink(link, ownLoopbackAddress());
    expect(page.text).toContain(`Sign in as ${client.email}`);
    const confirmed = await pressSignIn(link, { confirm: true, from: ownLoopbackAddress() });
    expect(confirmed.status).toBe(303);
    expect((await asSession(sessionOf(confirmed), 'GET', '/auth/me')).body.data.user.email).toBe(client.email);
  });
});

describe('a stranger cannot lock a user out of sign-in', () => {
  it('after six anonymous requests for an address from IP A, the owner’s own request from IP B answers 202 and mails a link', async () => {
    const client = await createAccountClient('free');
    const ipA = ownLoopbackAddress();
    const strangers = [];
    for (let i = 0; i < 6; i += 1)
      strangers.push((await raw('POST', '/auth/sign-in', { body: { email: client.email }, from: ipA })).status);
    expect(strangers).toEqual([202, 202, 202, 202, 202, 202]);
    await signInLinkOf(client.email, 5);

    const { link, cookie, from } = await askForLink(client.email, ownLoopbackAddress());
    expect(await sesMailsTo(client.email)).toHaveLength(6);
    const signedIn = await pressSignIn(link, { cookie, from });
    expect(signedIn.status).toBe(303);
  });
});

describe('invitations: no mail cannon, no cross-tenant oracle', () => {
  it('ends an invite → remove → invite loop at 3 invitations a day to one address', async () => {
    const client = await createAccountClient('growth');
    const owner = await signIn(client.email);
    const target = `loop-${randomUUID().slice(0, 8)}@test.example`;
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      const invited = await asSession(owner, 'POST', '/client/users', {
        body: { email: target, name: 'Loop', role: 4 },
      });
      statuses.push(invited.status);
      if (invited.status !== 202) {
        expect(invited.body.errors).toEqual([
          {
            condition: 'rate_limited',
            key: 'request',
            error: 'At most 3 invitations a day to one address; try again tomorrow (UTC)',
          },
        ]);
        continue;
      }
      // Each mail arrives (the loop is a mail cannon only if it does), then the user goes.
      await signInLinkOf(target, i + 1);
      const users = (await asSession(owner, 'GET', '/client/users')).body.data.users as { id: number; email: string }[];
      expect(
        (await asSession(owner, 'DELETE', `/client/users/${users.find((u) => u.email === target)!.id}`)).status,
      ).toBe(200);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await sesMailsTo(target)).toHaveLength(3);
  });

  it('answers an address of another client exactly like a new one; it only gets an e-mail saying it was invited', async () => {
    const inviter = await createAccountClient('growth');
    const holder = await createAccountClient('free');
    const owner = await signIn(inviter.email);
    const fresh = `fresh-${randomUUID().slice(0, 8)}@test.example`;

    const toNew = await asSession(owner, 'POST', '/client/users', { body: { email: fresh, name: 'Same', role: 3 } });
    const toHolder = await asSession(owner, 'POST', '/client/users', {
      body: { email: holder.email, name: 'Same', role: 3 },
    });

    const shape = (r: typeof toNew) => ({
      status: r.status,
      message: r.body.message,
      errors: r.body.errors,
      data: { ...r.body.data, email: '-', valid_until: '-' },
    });
    expect(shape(toHolder)).toEqual(shape(toNew));
    expect(toHolder.status).toBe(202);
    const [mail] = await (async () => {
      await signInLinkOf(fresh);
      const { awaitSesMailsTo } = await import('./support/ses-mailbox.js');
      return awaitSesMailsTo(holder.email);
    })();
    expect(mail!.subject).toBe(`You are invited to Account ${inviter.email} on Email Lifecycle`);
    expect(mail!.body.text).not.toMatch(/https?:\/\//);
    // The holder's account stays where it is; nothing about it changed.
    const holderSession = await signIn(holder.email);
    expect((await asSession(holderSession, 'GET', '/auth/me')).body.data.client.id).toBe(holder.id);
  });
});

describe('the queued sign-in mail survives a failing send', () => {
  it('reports a transient SES failure as a batch item failure, so SQS delivers it again, and the second delivery mails a working link', async () => {
    // Prepare: the real queue function on the run's DynamoDB, with a mailer that fails once as SES throttling does.
    const mailer = new FakeMailer();
    mailer.failWith.push(throttlingError());
    const container = engineContainer({ mailer, queue: new RecordingQueue() });
    setContainer(container);
    const client = await createAccountClient('free');
    const { handler } = await import('../../functions/queue/send-system-mail.js');
    const body = JSON.stringify({ kind: 'sign_in', email: client.email, binding_hash: 'b'.repeat(64) });
    const context = createLambdaContext({ functionName: 'send-system-mail', awsRequestId: randomUUID() });

    // Act
    const first = await handler(
      toSqsEvent('system-mail', [{ messageId: 'm-1', body, receiveCount: 1, sentAt: Date.now() }]),
      context,
    );
    const second = await handler(
      toSqsEvent('system-mail', [{ messageId: 'm-1', body, receiveCount: 2, sentAt: Date.now() }]),
      context,
    );

    // Assess
    expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(second).toEqual({ batchItemFailures: [] });
    expect(mailer.calls).toBe(2);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: client.email, subject: 'Your sign-in link', tags: { kind: 'system' } });
    const link = /http\S*\/auth\/callback\?token=[A-Za-z0-9_-]+/.exec(mailer.sent[0]!.text ?? '')![0];
    const confirmed = await pressSignIn(link, { confirm: true });
    expect(confirmed.status).toBe(303);
  });

  it('invites through the same queue: the request sends one message and no e-mail', async () => {
    const mailer = new FakeMailer();
    const recorded = new RecordingQueue();
    const container = engineContainer({ mailer, queue: recorded });
    const deps = container.resolve([userStore, clientStore, sessionStore, queueProvider, ids, clock]);
    const client = await createAccountClient('growth');
    await inviteUser(deps, client.id, client.owner_user_id, {
      email: `q-${randomUUID().slice(0, 8)}@test.example`,
      name: 'Q',
      role: 4,
    });
    expect(recorded.sent.map((s) => s.queue)).toEqual(['system-mail']);
    expect(mailer.calls).toBe(0);
  });
});
