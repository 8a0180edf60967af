import { describe, expect, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { addTestUser, asSession, createAccountClient, raw, signIn } from './support/sessions.js';

const PREVIEW = '/client/topics/preference-page-preview';
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Over HTTP: the dashboard's preview of the preference page, the same page read-only, for the client's own topics. */
describe('the preference page preview', () => {
  it("renders the client's brand and topics at their defaults, with the page's CSP, saving nothing; another client's topics are absent", async () => {
    // Prepare: a client with a brand and two topics; another client with a topic of its own
    const client = await createAccountClient('growth');
    const key = client.api_key;
    await call('PATCH', '/client/settings', {
      key,
      body: { brand_name: 'Acme Preview', brand_primary_color: '#FF5500' },
    });
    const news = (
      await call('POST', '/client/topics', { key, body: { name: 'Product news', description: 'What we ship' } })
    ).body.data;
    const beta = (
      await call('POST', '/client/topics', { key, body: { name: 'Beta <invites>', default_subscribed: false } })
    ).body.data;
    const other = await createTestClient();
    await call('POST', '/client/topics', { key: other.api_key, body: { name: 'Someone else’s topic' } });
    const viewer = await signIn(await addTestUser(client, 4));

    // Act: a viewer's session (as the dashboard's link opens it), an API key, and no credential
    const page = await asSession(viewer, 'GET', PREVIEW);
    const byKey = await raw('GET', PREVIEW, { headers: { authorization: `Bearer ${key}` } });
    const anonymous = await raw('GET', PREVIEW);
    const head = await asSession(viewer, 'HEAD', PREVIEW);

    // Assess
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CSP);
    expect(page.headers['cache-control']).toBe('no-store');
    const html = page.text;
    expect(html).toContain('<title>E-mail preferences – Acme Preview</title>');
    expect(html).toContain('border-top:6px solid #FF5500');
    expect(html).toContain('For <strong>Sample contact</strong>.');
    expect(html).toContain('Preview: nothing is saved.');
    // Topics at their defaults: Product news ticked, Beta (opt-in) not; names escaped as on the real page
    expect(html).toContain(`id="topic-${news.id}" name="topic" value="${news.id}" checked>`);
    expect(html).toContain(`id="topic-${beta.id}" name="topic" value="${beta.id}">`);
    expect(html).toContain('Beta &lt;invites&gt;');
    expect(html).toContain('name="leave_all"');
    // The form posts nowhere and every control is disabled
    expect(html).not.toContain('method="post"');
    expect(html).toContain('<form><fieldset class="frame" disabled>');
    expect(html).not.toContain('Someone else’s topic');
    expect(html).not.toContain('<script');
    expect(byKey.status).toBe(200);
    expect(byKey.text).toContain('Acme Preview');
    expect(anonymous.status).toBe(401);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('a client without topics gets the page with the leave-all choice only', async () => {
    const client = await createTestClient();

    const page = await raw('GET', PREVIEW, { headers: { authorization: `Bearer ${client.api_key}` } });

    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Send me e-mail about');
    expect(page.text).toContain('Leave all marketing e-mail');
    expect(page.text).toContain('Preview: nothing is saved.');
  });
});
