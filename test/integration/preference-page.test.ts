import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { awaitExecutionStatus } from './support/executions.js';
import { awaitSesMailsTo } from './support/ses-mailbox.js';

/** Topics over HTTP: the hosted preference page behind an e-mail's /u/{token} link saves a choice. */
describe('the preference page', () => {
  it('shows the brand and every topic, and a form POST (no script) saves the choices', async () => {
    // Prepare: a client with a brand and two topics; Ada gets a welcome e-mail
    const { api_key: key } = await createTestClient();
    await call('PATCH', '/client/settings', {
      key,
      body: { enabled_workflows: [1], brand_name: 'Acme Prefs', brand_primary_color: '#FF5500' },
    });
    const news = (
      await call('POST', '/client/topics', { key, body: { name: 'Product news', description: 'What we ship' } })
    ).body.data;
    const beta = (
      await call('POST', '/client/topics', { key, body: { name: 'Beta invites', default_subscribed: false } })
    ).body.data;
    const ada = `prefs-${randomUUID().slice(0, 8)}@example.com`;
    await call('POST', '/client/contacts', { key, body: { email: ada } });
    const signup = await call('POST', '/client/events?sync=true', { key, body: { type: 'signup', email: ada } });
    const sent = await awaitExecutionStatus(key, signup.body.data.execution_ids[0], 3);
    const [mail] = await awaitSesMailsTo(ada);
    const link = mail!.headers!.find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);

    // Act: the page, then its form as a browser posts it (Product news unticked, Beta ticked)
    const page = await fetch(link);
    const html = await page.text();
    const saved = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `form=preferences&shown=${news.id}&shown=${beta.id}&topic=${beta.id}`,
    });
    const savedHtml = await saved.text();
    const contact = await call('GET', `/client/contacts/${encodeURIComponent(ada)}`, { key });
    const email = await call('GET', `/client/sent-emails/${sent.sent_email_id}`, { key });
    const activity = await call('GET', `/client/contacts/${encodeURIComponent(ada)}/activity`, { key });

    // Assess
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(html).toContain('Acme Prefs');
    expect(html).toContain('border-top:6px solid #FF5500');
    expect(html).toContain(`id="topic-${news.id}" name="topic" value="${news.id}" checked>`);
    expect(html).toContain(`id="topic-${beta.id}" name="topic" value="${beta.id}">`);
    expect(html).toContain('name="leave_all"');
    expect(saved.status).toBe(200);
    expect(savedHtml).toContain('Your choices are saved.');
    expect(contact.body.data).toMatchObject({
      is_subscribed: true,
      topic_subscriptions: [
        { topic_id: news.id, is_subscribed: false },
        { topic_id: beta.id, is_subscribed: true },
      ],
    });
    expect(email.body.data.logs.filter((l: { status: number }) => l.status === 11)).toHaveLength(1);
    // Each choice is on the contact's timeline: the topic left and the one joined, made on the page
    const topics = activity.body.data.items.filter((i: { kind: string }) => i.kind === 'topic');
    expect(topics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ topic_id: news.id, is_subscribed: false, via: 'preference_page' }),
        expect.objectContaining({ topic_id: beta.id, is_subscribed: true, via: 'preference_page' }),
      ]),
    );
    expect(topics).toHaveLength(2);
  });

  it('leaving all marketing mail on the page unsubscribes the contact; the page then says only the client can add it back', async () => {
    const { api_key: key } = await createTestClient();
    await call('PATCH', '/client/settings', { key, body: { enabled_workflows: [1] } });
    const ada = `prefs-${randomUUID().slice(0, 8)}@example.com`;
    await call('POST', '/client/contacts', { key, body: { email: ada } });
    const signup = await call('POST', '/client/events?sync=true', { key, body: { type: 'signup', email: ada } });
    await awaitExecutionStatus(key, signup.body.data.execution_ids[0], 3);
    const [mail] = await awaitSesMailsTo(ada);
    const link = mail!.headers!.find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);

    const saved = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'form=preferences&leave_all=on',
    });
    const page = await (await fetch(link)).text();
    const contact = await call('GET', `/client/contacts/${encodeURIComponent(ada)}`, { key });

    expect(saved.status).toBe(200);
    expect(contact.body.data).toMatchObject({ is_subscribed: false, unsubscribe_reason: 'preference_page' });
    expect(page).not.toContain('name="leave_all"');
    expect(page).toContain('You left all marketing e-mail');
  });

  it('a bad token is the not-found page for the page and for a saved form, writing nothing', async () => {
    const origin = new URL(inject('baseUrl')).origin;

    const get = await fetch(`${origin}/u/abc.def`);
    const post = await fetch(`${origin}/u/abc.def`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'form=preferences&leave_all=on',
    });

    expect([get.status, post.status]).toEqual([404, 404]);
    expect(await post.text()).toContain('This link is not valid');
  });
});
