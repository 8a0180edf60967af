import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { awaitExecutionStatus } from './support/executions.js';
import { awaitSesMailsTo } from './support/ses-mailbox.js';

const address = (what: string) => `${what}-${randomUUID().slice(0, 8)}@example.com`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** Over HTTP (DynamoDB Local): each topic's `contacts_left`, after one-click, preference page and API changes. */
describe("a topic's contacts_left", () => {
  it('counts each contact whose own choice is false, once, whatever path changed it, and forgets an erased one', async () => {
    // Prepare: feature adoption (7) belongs to Feature tips; Beta is opt-in. Ada gets a feature e-mail.
    const { api_key: key } = await createTestClient();
    await call('PATCH', '/client/settings', { key, body: { enabled_workflows: [7] } });
    const tips = (await call('POST', '/client/topics', { key, body: { name: 'Feature tips' } })).body.data;
    const beta = (await call('POST', '/client/topics', { key, body: { name: 'Beta', default_subscribed: false } })).body
      .data;
    await call('PATCH', '/client/workflows/7/customization', { key, body: { topic_id: tips.id } });
    const [ada, bob] = [address('ada'), address('bob')];
    for (const email of [ada, bob]) await call('POST', '/client/contacts', { key, body: { email } });
    const used = await call('POST', '/client/events?sync=true', { key, body: { type: 'feature_used', email: ada } });
    await awaitExecutionStatus(key, used.body.data.execution_ids[0], 3);
    const [mail] = await awaitSesMailsTo(ada);
    const link = mail!.headers!.find((h) => h.name === 'List-Unsubscribe')!.value.slice(1, -1);
    const counts = async () =>
      Object.fromEntries(
        (
          (await call('GET', '/client/topics', { key })).body.data.topics as { name: string; contacts_left: number }[]
        ).map((t) => [t.name, t.contacts_left]),
      );
    const seen: Record<string, unknown>[] = [await counts()];

    // Act and assess, step by step
    // RFC 8058 one-click, twice (a mail client retrying): counted once
    for (let i = 0; i < 2; i += 1)
      await fetch(link, { method: 'POST', headers: form, body: 'List-Unsubscribe=One-Click' });
    seen.push(await counts());
    // The preference page: Ada rejoins Feature tips, then leaves it again; Beta stays unticked (never chosen: not counted)
    await fetch(link, {
      method: 'POST',
      headers: form,
      body: `form=preferences&shown=${tips.id}&shown=${beta.id}&topic=${tips.id}`,
    });
    seen.push(await counts());
    await fetch(link, { method: 'POST', headers: form, body: `form=preferences&shown=${tips.id}&shown=${beta.id}` });
    seen.push(await counts());
    // The API: Bob leaves (twice: counted once), joins Beta (a choice of true: not counted), rejoins, leaves
    const subscription = (email: string, topicId: number, subscribed: boolean) =>
      call('PATCH', `/client/contacts/${encodeURIComponent(email)}/subscription`, {
        key,
        body: { is_subscribed: subscribed, topic_id: topicId },
      });
    const left = await subscription(bob, tips.id, false);
    await subscription(bob, tips.id, false);
    await subscription(bob, beta.id, true);
    seen.push(await counts());
    await subscription(bob, tips.id, true);
    seen.push(await counts());
    await subscription(bob, tips.id, false);
    await subscription(bob, beta.id, false);
    seen.push(await counts());
    // Bob is erased: the topics he left count him no more
    const erased = await call('DELETE', `/client/contacts/${encodeURIComponent(bob)}`, { key });
    seen.push(await counts());
    const one = await call('GET', `/client/topics/${tips.id}`, { key });

    expect(left.status).toBe(200);
    expect(left.body.data.topic_subscriptions).toEqual([
      { topic_id: tips.id, is_subscribed: false },
      { topic_id: beta.id, is_subscribed: false },
    ]);
    expect(erased.status).toBe(200);
    expect(seen).toEqual([
      { 'Feature tips': 0, Beta: 0 },
      { 'Feature tips': 1, Beta: 0 },
      { 'Feature tips': 0, Beta: 0 },
      { 'Feature tips': 1, Beta: 0 },
      { 'Feature tips': 2, Beta: 0 },
      { 'Feature tips': 1, Beta: 0 },
      { 'Feature tips': 2, Beta: 1 },
      { 'Feature tips': 1, Beta: 0 },
    ]);
    expect(one.body.data).toMatchObject({ id: tips.id, contacts_left: 1 });
  });
});
