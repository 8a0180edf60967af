import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { awaitExecutionStatus } from '../support/executions.js';
import { eventually } from '../support/eventually.js';
import { awaitSesMailsTo } from '../support/ses-mailbox.js';

const address = (what: string) => `${what}-${randomUUID().slice(0, 8)}@example.com`;

/** Consent categories over HTTP on the local runtime: transactional and marketing mail. */
describe('transactional and marketing mail over HTTP', () => {
  it("shows each workflow's category and refuses to change it: 422 read_only, nothing written", async () => {
    const client = await createTestClient();

    const listed = await call('GET', '/client/workflows', { key: client.api_key });
    const refused = await call('PATCH', '/client/workflows/1/customization', {
      key: client.api_key,
      body: { priority_score: 10, category: 'transactional' },
    });
    const after = await call('GET', '/client/workflows', { key: client.api_key });
    const audit = await call('GET', '/client/workflows/1/customization/audit', { key: client.api_key });

    expect(listed.body.data.workflows.map((w: { key: string; category: string }) => [w.key, w.category])).toEqual([
      ['welcome', 'marketing'],
      ['onboarding_tips', 'marketing'],
      ['trial_ending', 'marketing'],
      ['upgrade_thanks', 'marketing'],
      ['payment_failed', 'transactional'],
      ['cancellation_winback', 'marketing'],
      ['feature_adoption', 'marketing'],
      ['re_engagement', 'marketing'],
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        condition: 'read_only',
        key: 'category',
        error: "A workflow's category is fixed by the catalog (GET /client/workflows `category`) and cannot be changed",
      },
    ]);
    expect(after.body.data.workflows[0].customization.priority_score).toBe(90);
    expect(audit.body.data.entries).toEqual([]);
  });

  it('an unsubscribed contact still gets payment_failed, with a preference link and no one-click headers; its marketing mail is skipped', async () => {
    // Prepare: Ada unsubscribes through the API
    const client = await createTestClient();
    await call('PATCH', '/client/settings', { key: client.api_key, body: { enabled_workflows: [1, 5] } });
    const email = address('unsubscribed');
    await call('POST', '/client/contacts', { key: client.api_key, body: { email } });
    await call('PATCH', `/client/contacts/${encodeURIComponent(email)}/subscription`, {
      key: client.api_key,
      body: { is_subscribed: false, unsubscribe_reason: 'too many e-mails' },
    });

    // Act
    const signup = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email },
    });
    const failed = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'payment_failed', email },
    });

    // Assess
    const welcome = await awaitExecutionStatus(client.api_key, signup.body.data.execution_ids[0], 6);
    const payment = await awaitExecutionStatus(client.api_key, failed.body.data.execution_ids[0], 3);
    expect(welcome).toMatchObject({ workflow_id: 1, reason: 'unsubscribed' });
    expect(payment).toMatchObject({ workflow_id: 5 });
    const [mail] = await awaitSesMailsTo(email);
    expect(mail!.subject).toMatch(/payment/i);
    expect((mail!.headers ?? []).filter((h) => h.name.toLowerCase().startsWith('list-unsubscribe'))).toEqual([]);
    const link = /<a href="(http:\/\/[^"]+\/u\/[^"]+)"[^>]*>Manage your email preferences<\/a>/.exec(
      mail!.body.html ?? '',
    )?.[1];
    expect(link).toBeDefined();
    const page = await fetch(link!);
    expect(page.status).toBe(200);
  });

  it('a bounced address gets nothing, transactional mail included: skipped suppressed', async () => {
    // Prepare: the welcome e-mail hard-bounces (the SES mailbox simulator), which suppresses the address
    const client = await createTestClient();
    await call('PATCH', '/client/settings', { key: client.api_key, body: { enabled_workflows: [1, 5] } });
    const email = 'bounce@simulator.amazonses.com';
    await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email, auto_create_contact: true },
    });
    await eventually('the hard bounce suppresses the contact', async () => {
      const contact = await call('GET', `/client/contacts/${encodeURIComponent(email)}`, { key: client.api_key });
      return contact.body.data.unsubscribe_reason === 'hard_bounce' ? contact : undefined;
    });

    // Act
    const failed = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'payment_failed', email },
    });

    // Assess
    const payment = await awaitExecutionStatus(client.api_key, failed.body.data.execution_ids[0], 6);
    expect(payment).toMatchObject({ workflow_id: 5, reason: 'suppressed', sent_email_id: null });
  });

  it('an API unsubscription of a suppressed address keeps the suppression reason, so transactional mail stays stopped', async () => {
    // Prepare: the complaint simulator suppresses the address (delivery, then complaint)
    const client = await createTestClient();
    const key = client.api_key;
    await call('PATCH', '/client/settings', { key, body: { enabled_workflows: [1, 5] } });
    const email = 'complaint@simulator.amazonses.com';
    await call('POST', '/client/events?sync=true', { key, body: { type: 'signup', email, auto_create_contact: true } });
    await eventually('the complaint suppresses the contact', async () => {
      const contact = await call('GET', `/client/contacts/${encodeURIComponent(email)}`, { key });
      return contact.body.data.unsubscribe_reason === 'complaint' ? contact : undefined;
    });

    // Act
    const patched = await call('PATCH', `/client/contacts/${encodeURIComponent(email)}/subscription`, {
      key,
      body: { is_subscribed: false, unsubscribe_reason: 'cleaning the list' },
    });
    const failed = await call('POST', '/client/events?sync=true', { key, body: { type: 'payment_failed', email } });

    // Assess
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ is_subscribed: false, unsubscribe_reason: 'complaint' });
    expect(await awaitExecutionStatus(key, failed.body.data.execution_ids[0], 6)).toMatchObject({
      reason: 'suppressed',
    });
  });

  it('a marketing e-mail of a topic the contact left is skipped topic_unsubscribed; another contact gets it', async () => {
    // Prepare: feature adoption (7) belongs to the topic; Ada leaves it, Bob does not
    const client = await createTestClient();
    const key = client.api_key;
    await call('PATCH', '/client/settings', { key, body: { enabled_workflows: [7] } });
    const topic = (await call('POST', '/client/topics', { key, body: { name: 'Feature tips' } })).body.data;
    await call('PATCH', '/client/workflows/7/customization', { key, body: { topic_id: topic.id } });
    const [ada, bob] = [address('ada'), address('bob')];
    for (const email of [ada, bob]) await call('POST', '/client/contacts', { key, body: { email } });
    await call('PATCH', `/client/contacts/${encodeURIComponent(ada)}/subscription`, {
      key,
      body: { is_subscribed: false, topic_id: topic.id },
    });

    // Act
    const [forAda, forBob] = [
      await call('POST', '/client/events?sync=true', { key, body: { type: 'feature_used', email: ada } }),
      await call('POST', '/client/events?sync=true', { key, body: { type: 'feature_used', email: bob } }),
    ];

    // Assess
    expect(await awaitExecutionStatus(key, forAda.body.data.execution_ids[0], 6)).toMatchObject({
      reason: 'topic_unsubscribed',
    });
    await awaitExecutionStatus(key, forBob.body.data.execution_ids[0], 3);
    expect(await awaitSesMailsTo(bob)).toHaveLength(1);
  });

  it('the one-click link of a topic mail leaves that topic only, with its log; the rest of the marketing mail goes on', async () => {
    // Prepare: feature adoption (7) belongs to the topic, welcome (1) to none; Ada gets a feature e-mail
    const client = await createTestClient();
    const key = client.api_key;
    await call('PATCH', '/client/settings', { key, body: { enabled_workflows: [1, 7] } });
    const topic = (await call('POST', '/client/topics', { key, body: { name: 'Feature tips' } })).body.data;
    await call('PATCH', '/client/workflows/7/customization', { key, body: { topic_id: topic.id } });
    const ada = address('ada');
    await call('POST', '/client/contacts', { key, body: { email: ada } });
    const used = await call('POST', '/client/events?sync=true', { key, body: { type: 'feature_used', email: ada } });
    const sent = await awaitExecutionStatus(key, used.body.data.execution_ids[0], 3);
    const [mail] = await awaitSesMailsTo(ada);
    const link = mail!.headers!.find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);

    // Act: RFC 8058 one-click, as a mail client sends it, twice
    const posts = [];
    for (let i = 0; i < 2; i += 1) {
      posts.push(
        await fetch(link, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        }),
      );
    }
    const contact = await call('GET', `/client/contacts/${encodeURIComponent(ada)}`, { key });
    const email = await call('GET', `/client/sent-emails/${sent.sent_email_id}`, { key });
    const activity = await call('GET', `/client/contacts/${encodeURIComponent(ada)}/activity`, { key });
    const again = await call('POST', '/client/events?sync=true', { key, body: { type: 'feature_used', email: ada } });
    const signup = await call('POST', '/client/events?sync=true', { key, body: { type: 'signup', email: ada } });

    // Assess
    expect(posts.map((r) => r.status)).toEqual([200, 200]);
    expect(contact.body.data).toMatchObject({
      is_subscribed: true,
      topic_subscriptions: [{ topic_id: topic.id, is_subscribed: false }],
    });
    expect(email.body.data.logs.filter((l: { status: number }) => l.status === 11)).toHaveLength(1);
    // On the contact's timeline: the topic left, by the one-click link, at the time of the e-mail's log
    const log = email.body.data.logs.find((l: { status: number }) => l.status === 11);
    expect(activity.body.data.items.filter((i: { kind: string }) => i.kind === 'topic')).toEqual([
      { kind: 'topic', at: log.created_at, topic_id: topic.id, is_subscribed: false, via: 'one_click' },
    ]);
    expect(await awaitExecutionStatus(key, again.body.data.execution_ids[0], 6)).toMatchObject({
      reason: 'topic_unsubscribed',
    });
    await awaitExecutionStatus(key, signup.body.data.execution_ids[0], 3);
  });
});
