import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { call, checkContract } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { asSession, createAccountClient, raw, signIn } from './support/sessions.js';
import { sendWelcome, storeUnsafeWelcome } from './support/unsafe-template.js';

/** What every e-mail document answers with, whoever opens it (shared/http/email-document.ts). */
const SANDBOX = "sandbox; default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
const PUBLIC_CSP = `${SANDBOX}; img-src https: data:; frame-ancestors 'none'`;
const DASHBOARD_CSP = `${SANDBOX}; img-src data:; frame-ancestors 'self'`;
const SCRIPT = '<script>fetch("/api/v1/client/api-keys", { method: "POST" })</script>';

/** A form POST below /api/v1 (as the dashboard's preview frame sends it): the session's cookies, no CSRF header. */
async function postForm(
  session: { cookie: string } | undefined,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${inject('baseUrl')}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(session ? { cookie: session.cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  await checkContract({ method: 'POST', path: `/api/v1${path}`, status: response.status, contentType, text });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text,
    body: contentType.includes('json') ? JSON.parse(text) : undefined,
  };
}

describe('an e-mail is a document of its own', () => {
  it('the view-in-browser link answers the e-mail in a sandbox nobody frames, never cached, with no referrer', async () => {
    // Prepare: an e-mail whose stored template holds a script (stored before the save check existed)
    const client = await createTestClient();
    await storeUnsafeWelcome(client, `<!DOCTYPE html><html><body><p>Welcome</p>${SCRIPT}</body></html>`);
    const sent = await sendWelcome(client.api_key, `ada-${randomUUID().slice(0, 8)}@example.com`);

    // Act
    const url = new URL(sent.browser_url);
    const page = await raw('GET', `!${url.pathname}`);

    // Assess: the e-mail as sent (nothing rewritten), in an opaque origin where the script cannot run
    expect(page.status).toBe(200);
    expect(page.text).toContain(SCRIPT);
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PUBLIC_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    });
  });

  it("GET /client/sent-emails/{id}/html answers the client's own e-mail for the dashboard's frame; another client's id is 404", async () => {
    // Prepare
    const client = await createAccountClient('growth');
    await storeUnsafeWelcome(client, `<p>Welcome</p>${SCRIPT}`);
    const sent = await sendWelcome(client.api_key, `ada-${randomUUID().slice(0, 8)}@example.com`);
    const other = await createAccountClient('growth');
    const [owner, stranger] = await Promise.all([signIn(client.email), signIn(other.email)]);
    const path = `/client/sent-emails/${sent.id}/html`;

    // Act
    const [bySession, byKey, byHead, byOtherSession, byOtherKey, anonymous] = await Promise.all([
      asSession(owner, 'GET', path),
      raw('GET', path, { headers: { authorization: `Bearer ${client.api_key}` } }),
      asSession(owner, 'HEAD', path),
      asSession(stranger, 'GET', path),
      raw('GET', path, { headers: { authorization: `Bearer ${other.api_key}` } }),
      raw('GET', path),
    ]);

    // Assess
    expect(bySession.status).toBe(200);
    expect(bySession.text).toBe(sent.html_body);
    expect(bySession.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DASHBOARD_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'private, no-store',
      'x-frame-options': 'SAMEORIGIN',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(byKey.status).toBe(200);
    expect(byKey.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(byHead.status).toBe(200);
    expect(byHead.text).toBe('');
    for (const refused of [byOtherSession, byOtherKey]) {
      expect(refused.status).toBe(404);
      expect(refused.body.errors).toEqual([{ condition: 'not_found', key: 'id', error: 'Sent e-mail not found' }]);
      expect(refused.text).not.toContain('Welcome');
    }
    expect(anonymous.status).toBe(401);
  });

  it('POST /client/email-templates/{id}/html renders a draft posted by a form with the CSRF token as a field', async () => {
    // Prepare
    const client = await createAccountClient('growth');
    const template = (
      await call('POST', '/client/email-templates', {
        key: client.api_key,
        body: { name: 'Doc', subject: 'Hi', html_body: '<p>Stored</p>' },
      })
    ).body.data;
    const other = await createAccountClient('growth');
    const [owner, stranger] = await Promise.all([signIn(client.email), signIn(other.email)]);
    const path = `/client/email-templates/${template.id}/html`;
    const draft = { html_body: '<p>Draft for <%= it.contact.first_name ?? "you" %></p>' };

    // Act
    const [withToken, withoutToken, wrongToken, stored, byKey, unsafe, foreign, asJson] = await Promise.all([
      postForm(owner, path, { ...draft, csrf_token: owner.csrf }),
      postForm(owner, path, draft),
      postForm(owner, path, { ...draft, csrf_token: 'x'.repeat(43) }),
      postForm(owner, path, { csrf_token: owner.csrf }),
      postForm(undefined, path, draft, { authorization: `Bearer ${client.api_key}` }),
      postForm(owner, path, { html_body: `<p>Hi</p><img src=x onerror="alert(1)">`, csrf_token: owner.csrf }),
      postForm(stranger, path, { ...draft, csrf_token: stranger.csrf }),
      raw('POST', path, { headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf }, body: draft }),
    ]);

    // Assess: the draft rendered by the sender's code, in the dashboard's sandbox
    expect(withToken.status).toBe(200);
    expect(withToken.text).toBe('<p>Draft for you</p>');
    expect(withToken.headers).toMatchObject({
      'content-security-policy': DASHBOARD_CSP,
      'cache-control': 'private, no-store',
      'x-frame-options': 'SAMEORIGIN',
    });
    expect(stored.text).toBe('<p>Stored</p>');
    expect(byKey.status).toBe(200);
    // The session's rules: a form without the token (or with another) changes nothing and is refused
    for (const refused of [withoutToken, wrongToken]) {
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0]).toMatchObject({ condition: 'forbidden', key: 'csrf' });
    }
    expect(unsafe.status).toBe(422);
    expect(unsafe.body.errors).toEqual([
      {
        condition: 'unsafe',
        key: 'html_body',
        error: expect.stringContaining('an event-handler attribute onerror on <img>'),
      },
    ]);
    expect(foreign.status).toBe(404);
    expect(asJson.status).toBe(415);
  });

  it.each([
    ['a script', '<p>Hi</p><script>alert(1)</script>', 'a <script> element'],
    ['an svg onload', '<svg/onload=alert(1)>', 'an event-handler attribute onload on <svg>'],
    ['an entity-encoded javascript: link', '<a href="javascript&#58;alert(1)">x</a>', 'a javascript: URL in <a href>'],
  ])(
    'a template with %s is 422 unsafe at html_body on create, update and a preview draft',
    async (_label, html, what) => {
      // Prepare
      const client = await createTestClient();
      const key = client.api_key;
      const template = (
        await call('POST', '/client/email-templates', {
          key,
          body: { name: 'Safe', subject: 'Hi', html_body: '<p>Safe</p>' },
        })
      ).body.data;

      // Act
      const created = await call('POST', '/client/email-templates', {
        key,
        body: { name: 'Unsafe', subject: 'Hi', html_body: html },
      });
      const updated = await call('PATCH', `/client/email-templates/${template.id}`, { key, body: { html_body: html } });
      const previewed = await call('POST', `/client/email-templates/${template.id}/render-preview`, {
        key,
        body: { draft: { html_body: html } },
      });

      // Assess: refused at its field with what and where; nothing stored
      for (const [res, field] of [
        [created, 'html_body'],
        [updated, 'html_body'],
        [previewed, 'draft.html_body'],
      ] as const) {
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual([
          { condition: 'unsafe', key: field, error: expect.stringContaining(`HTML at line 1 is refused: ${what}`) },
        ]);
      }
      expect((await call('GET', `/client/email-templates/${template.id}`, { key })).body.data.html_body).toBe(
        '<p>Safe</p>',
      );
    },
  );
});
