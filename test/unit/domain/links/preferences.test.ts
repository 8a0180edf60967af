import { describe, expect, it } from 'vitest';
import { sentEmailKey } from '../../../../shared/adapters/memory/engine-data.js';
import { memoryStores, type MemoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { signLinkToken } from '../../../../shared/domain/links/link-token.js';
import { preferencePage } from '../../../../shared/domain/links/pages.js';
import { loadPreferences, preferenceChoiceOf, savePreferences } from '../../../../shared/domain/links/preferences.js';
import type { UnsubscribeStore } from '../../../../shared/domain/links/unsubscribe-store.js';
import { SENT_STATUS, type SentEmailRecord } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { createTopic } from '../../../../shared/domain/topics/manage-topics.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const SECRET = 'a-local-link-secret-of-at-least-32-bytes';
const CLIENT = 7;
const CONTACT = 42;
const EMAIL_ID = '00000000-0000-8000-8000-000000000003';
const TOKEN = signLinkToken(SECRET, { purpose: 'u', clientId: CLIENT, sentEmailId: EMAIL_ID });

const email: SentEmailRecord = {
  id: EMAIL_ID,
  client_id: CLIENT,
  contact_id: CONTACT,
  execution_id: 1,
  workflow_id: 5,
  email_template_id: 5,
  email_template_name: 'Payment failed',
  from_email: 'hello@acme.test',
  to_email: 'ann@example.com',
  subject: 'Payment',
  html_body: '<p>Hi</p>',
  text_body: 'Hi',
  browser_url: 'https://els.test/v/x',
  status: SENT_STATUS.delivered,
  status_updated_at: '2026-01-15T09:00:00.000Z',
  created_at: '2026-01-15T09:00:00.000Z',
};

/** Ann, an e-mail to her, and two topics: News (default in) and Beta (opt-in). */
async function seeded(contact: Record<string, unknown> = {}) {
  const stores = memoryStores();
  await stores.contacts.create(contactRecord({ id: CONTACT, client_id: CLIENT, ...contact }));
  stores.sentEmails.data.sentEmails.set(sentEmailKey(CLIENT, EMAIL_ID), structuredClone(email));
  await createTopic(stores, CLIENT, { name: 'News', description: 'What we ship', default_subscribed: true });
  await createTopic(stores, CLIENT, { name: 'Beta <invites>', description: '', default_subscribed: false });
  return stores;
}

const deps = (stores: MemoryStores, unsubscribe: UnsubscribeStore = stores.unsubscribe) => ({ ...stores, unsubscribe });
const form = (fields: string) => preferenceChoiceOf(new URLSearchParams(fields))!;

async function stateOf(stores: MemoryStores) {
  const c = (await stores.contacts.get(CLIENT, CONTACT)) as unknown as Record<string, unknown>;
  const logs = (await stores.sentEmails.getWithLogs(CLIENT, EMAIL_ID))!.logs;
  return {
    is_subscribed: c['is_subscribed'],
    reason: c['unsubscribe_reason'] ?? null,
    topic_1: c['topic_1'],
    topic_2: c['topic_2'],
    logs: logs.length,
  };
}

describe('the preference page (memory ports)', () => {
  it("shows every topic with its state, and saves the ticked ones as the contact's choices with a log of what it left", async () => {
    // Prepare
    const stores = await seeded();
    const before = await loadPreferences(deps(stores), SECRET, TOKEN);

    // Act: News unticked, Beta ticked
    const after = await savePreferences(deps(stores), SECRET, TOKEN, form('form=preferences&shown=1&shown=2&topic=2'));

    // Assess
    expect(before?.topics.map((t) => [t.topic.name, t.subscribed])).toEqual([
      ['News', true],
      ['Beta <invites>', false],
    ]);
    expect(after?.topics.map((t) => t.subscribed)).toEqual([false, true]);
    expect(await stateOf(stores)).toEqual({
      is_subscribed: true,
      reason: null,
      topic_1: false,
      topic_2: true,
      logs: 1,
    });
  });

  it('leaves all marketing mail when asked, keeping the topic choices; a second save cannot bring it back', async () => {
    const stores = await seeded();

    await savePreferences(deps(stores), SECRET, TOKEN, form('form=preferences&shown=1&shown=2&topic=1&leave_all=on'));
    const again = await savePreferences(deps(stores), SECRET, TOKEN, form('form=preferences&shown=1&shown=2&topic=1'));

    expect(await stateOf(stores)).toEqual({
      is_subscribed: false,
      reason: 'preference_page',
      topic_1: undefined,
      topic_2: undefined,
      logs: 1,
    });
    expect(again?.leftAll).toBe(true);
  });

  it('writes nothing when nothing changed, and leaves alone topics the form did not show', async () => {
    const stores = await seeded();

    await savePreferences(deps(stores), SECRET, TOKEN, form('form=preferences&shown=2'));
    await savePreferences(deps(stores), SECRET, TOKEN, form('form=preferences&shown=1&topic=1'));

    expect(await stateOf(stores)).toEqual({
      is_subscribed: true,
      reason: null,
      topic_1: undefined,
      topic_2: undefined,
      logs: 0,
    });
  });

  it('fault: the save dies — nothing is half-written (one transaction), and saving again does it all', async () => {
    const stores = await seeded();
    const failing: UnsubscribeStore = {
      unsubscribe: stores.unsubscribe.unsubscribe.bind(stores.unsubscribe),
      leaveTopic: stores.unsubscribe.leaveTopic.bind(stores.unsubscribe),
      savePreferences: async () => {
        throw new Error('store unavailable');
      },
    };
    const choice = form('form=preferences&shown=1&shown=2&leave_all=on');

    const first = await savePreferences(deps(stores, failing), SECRET, TOKEN, choice).catch((e: Error) => e);
    const between = await stateOf(stores);
    await savePreferences(deps(stores), SECRET, TOKEN, choice);

    expect(first).toBeInstanceOf(Error);
    expect(between).toEqual({ is_subscribed: true, reason: null, topic_1: undefined, topic_2: undefined, logs: 0 });
    expect(await stateOf(stores)).toEqual({
      is_subscribed: false,
      reason: 'preference_page',
      topic_1: false,
      topic_2: undefined,
      logs: 1,
    });
  });

  it('is no page for a bad token or an erased contact', async () => {
    const stores = await seeded();
    const foreign = signLinkToken(SECRET, { purpose: 'u', clientId: CLIENT + 1, sentEmailId: EMAIL_ID });

    expect(await loadPreferences(deps(stores), SECRET, foreign)).toBeUndefined();
    expect(await loadPreferences(deps(stores), SECRET, `${TOKEN}x`)).toBeUndefined();
    stores.contacts.contacts.clear();
    expect(await loadPreferences(deps(stores), SECRET, TOKEN)).toBeUndefined();
  });

  it("reads a form only when it is the page's: the one-click body is not one", () => {
    expect(preferenceChoiceOf(new URLSearchParams('List-Unsubscribe=One-Click'))).toBeUndefined();
    expect(form('form=preferences&shown=1&shown=x&topic=99999999999')).toEqual({
      shown: [1],
      subscribed: [],
      leaveAll: false,
    });
  });
});

describe('preferencePage', () => {
  const html = preferencePage({
    address: 'ann@example.com',
    brand: { name: 'Acme & Co', color: '#FF0000' },
    leftAll: false,
    topics: [
      { topic: { id: 1, name: 'News', description: 'What we ship' }, subscribed: true },
      { topic: { id: 2, name: 'Beta <invites>', description: '' }, subscribed: false },
    ],
  });

  it('is a plain form POST with a label for every control, escaped text, and nothing from another origin', () => {
    expect(html).toContain('<form method="post">');
    expect(html).not.toMatch(/<script|<img|<link|src=|https?:\/\//i);
    const ids = [...html.matchAll(/<input type="checkbox" id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['topic-1', 'topic-2', 'leave-all']);
    for (const id of ids) expect(html).toContain(`<label for="${id}">`);
    expect(html).toContain('id="topic-1" name="topic" value="1" checked>');
    expect(html).toContain('id="topic-2" name="topic" value="2">');
    expect(html).toContain('Beta &lt;invites&gt;');
    expect(html).toContain('Acme &amp; Co');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<button type="submit">Save my choices</button>');
  });

  it('says the contact left all marketing mail instead of offering it, and confirms a save', () => {
    const left = preferencePage({ address: 'a@b.c', brand: { name: 'Acme' }, leftAll: true, topics: [] }, true);
    expect(left).not.toContain('leave_all');
    expect(left).toContain('You left all marketing e-mail from Acme');
    expect(left).toContain('<p role="status" class="saved">Your choices are saved.</p>');
  });
});
