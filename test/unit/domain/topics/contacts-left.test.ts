import { describe, expect, it } from 'vitest';
import { sentEmailKey } from '../../../../shared/adapters/memory/engine-data.js';
import { memoryStores, type MemoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { updateSubscription } from '../../../../shared/domain/contacts/update-subscription.js';
import { signLinkToken } from '../../../../shared/domain/links/link-token.js';
import { preferenceChoiceOf, savePreferences } from '../../../../shared/domain/links/preferences.js';
import { unsubscribeByLink } from '../../../../shared/domain/links/public-links.js';
import type { UnsubscribeStore } from '../../../../shared/domain/links/unsubscribe-store.js';
import { SENT_STATUS, type SentEmailRecord } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { createTopic, getTopic, listTopics } from '../../../../shared/domain/topics/manage-topics.js';
import { contactRecord } from '../../support/contact-fixtures.js';

/** A topic's `contacts_left` on the memory ports, every path that changes a contact's choice. */
const SECRET = 'a-local-link-secret-of-at-least-32-bytes';
const CLIENT = 7;
const ANN = 42;
const BOB = 43;
const NEWS = 1;
const BETA = 2;

const emailTo = (contactId: number, id: string): SentEmailRecord => ({
  id,
  client_id: CLIENT,
  contact_id: contactId,
  execution_id: 1,
  workflow_id: 2,
  email_template_id: 2,
  email_template_name: 'Onboarding tips',
  from_email: 'hello@acme.test',
  to_email: `${contactId}@example.com`,
  subject: 'Tips',
  html_body: '<p>Hi</p>',
  text_body: 'Hi',
  browser_url: 'https://els.test/v/x',
  topic_id: NEWS,
  status: SENT_STATUS.delivered,
  status_updated_at: '2026-01-15T09:00:00.000Z',
  created_at: '2026-01-15T09:00:00.000Z',
});
const ANN_EMAIL = '00000000-0000-8000-8000-000000000001';
const BOB_EMAIL = '00000000-0000-8000-8000-000000000002';
const tokenOf = (sentEmailId: string) => signLinkToken(SECRET, { purpose: 'u', clientId: CLIENT, sentEmailId });

/** Ann and Bob, an e-mail of topic News to each; News (default in) and Beta (opt-in). */
async function seeded() {
  const stores = memoryStores();
  for (const [contactId, emailId] of [
    [ANN, ANN_EMAIL],
    [BOB, BOB_EMAIL],
  ] as const) {
    await stores.contacts.create(
      contactRecord({
        id: contactId,
        client_id: CLIENT,
        email: `${contactId}@example.com`,
        client_contact_id: `u${contactId}`,
      }),
    );
    stores.sentEmails.data.sentEmails.set(sentEmailKey(CLIENT, emailId), emailTo(contactId, emailId));
  }
  await createTopic(stores, CLIENT, { name: 'News', description: '', default_subscribed: true });
  await createTopic(stores, CLIENT, { name: 'Beta', description: '', default_subscribed: false });
  return stores;
}

const left = async (stores: MemoryStores) =>
  Object.fromEntries((await listTopics(stores, CLIENT)).map((t) => [t.name, t.contacts_left]));
const oneClick = (stores: MemoryStores, emailId = ANN_EMAIL) => unsubscribeByLink(stores, SECRET, tokenOf(emailId));
const api = (stores: MemoryStores, contactId: number, topicId: number, subscribed: boolean) =>
  updateSubscription(stores, CLIENT, { id: contactId }, { is_subscribed: subscribed, topic_id: topicId });
const save = (
  stores: MemoryStores,
  fields: string,
  unsubscribe: UnsubscribeStore = stores.unsubscribe,
  emailId = ANN_EMAIL,
) =>
  savePreferences(
    { ...stores, unsubscribe },
    SECRET,
    tokenOf(emailId),
    preferenceChoiceOf(new URLSearchParams(`form=preferences&${fields}`))!,
  );

describe("a topic's contacts_left (memory ports)", () => {
  it('starts at 0 and counts no contact that never chose', async () => {
    const stores = await seeded();

    expect(await left(stores)).toEqual({ News: 0, Beta: 0 });
    expect((await getTopic(stores, CLIENT, NEWS)).contacts_left).toBe(0);
  });

  it('counts a one-click leave once however often its POST arrives', async () => {
    const stores = await seeded();

    await oneClick(stores);
    await oneClick(stores);
    await oneClick(stores);

    expect(await left(stores)).toEqual({ News: 1, Beta: 0 });
    await oneClick(stores, BOB_EMAIL);
    expect(await left(stores)).toEqual({ News: 2, Beta: 0 });
  });

  it('follows the API through leave → rejoin → leave, and a repeated choice moves nothing', async () => {
    const stores = await seeded();
    const seen: number[] = [];

    for (const subscribed of [false, false, true, true, false]) {
      await api(stores, ANN, NEWS, subscribed);
      seen.push((await getTopic(stores, CLIENT, NEWS)).contacts_left);
    }

    expect(seen).toEqual([1, 1, 0, 0, 1]);
    // Joining an opt-in topic is a choice of true: nothing to count.
    await api(stores, ANN, BETA, true);
    expect(await left(stores)).toEqual({ News: 1, Beta: 0 });
  });

  it('follows the preference page: each changed topic moves once, rejoining takes the contact off', async () => {
    const stores = await seeded();

    await save(stores, 'shown=1&shown=2&topic=2'); // leaves News, joins Beta
    expect(await left(stores)).toEqual({ News: 1, Beta: 0 });
    await save(stores, 'shown=1&shown=2&topic=2'); // the same form again: nothing changes
    expect(await left(stores)).toEqual({ News: 1, Beta: 0 });
    await save(stores, 'shown=1&shown=2&topic=1'); // rejoins News, leaves Beta
    expect(await left(stores)).toEqual({ News: 0, Beta: 1 });
  });

  it('counts a contact once across the paths: one-click, then the page rejoins, then the API leaves', async () => {
    const stores = await seeded();

    await oneClick(stores);
    await save(stores, 'shown=1&topic=1');
    const rejoined = await left(stores);
    await api(stores, ANN, NEWS, false);
    await oneClick(stores);

    expect(rejoined).toEqual({ News: 0, Beta: 0 });
    expect(await left(stores)).toEqual({ News: 1, Beta: 0 });
  });

  it('reads again when a one-click link left the topic between the page read and its save: counted once', async () => {
    const stores = await seeded();
    let raced = false;
    // The one-click lands after the page read the contact, before the page's write.
    const racing: UnsubscribeStore = {
      unsubscribe: (w) => stores.unsubscribe.unsubscribe(w),
      leaveTopic: (w) => stores.unsubscribe.leaveTopic(w),
      savePreferences: async (w) => {
        if (!raced) {
          raced = true;
          await oneClick(stores);
        }
        return stores.unsubscribe.savePreferences(w);
      },
    };

    const view = await save(stores, 'shown=1&shown=2', racing);

    expect(raced).toBe(true);
    expect(view?.topics.map((t) => [t.topic.name, t.subscribed])).toEqual([
      ['News', false],
      ['Beta', false],
    ]);
    expect(await left(stores)).toEqual({ News: 1, Beta: 0 });
    const contact = (await stores.contacts.get(CLIENT, ANN)) as unknown as Record<string, unknown>;
    expect(contact['topic_by_1']).toBe('one_click');
  });

  it("keeps each client's counts apart, and a topic created later starts at 0", async () => {
    const stores = await seeded();
    await oneClick(stores);

    await createTopic(stores, CLIENT + 1, { name: 'News', description: '', default_subscribed: true });
    await createTopic(stores, CLIENT, { name: 'Offers', description: '', default_subscribed: true });

    expect(await left(stores)).toEqual({ News: 1, Beta: 0, Offers: 0 });
    expect((await listTopics(stores, CLIENT + 1)).map((t) => t.contacts_left)).toEqual([0]);
  });
});
