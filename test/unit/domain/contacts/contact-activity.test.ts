import { describe, expect, it } from 'vitest';
import { listContactActivity, type ContactActivityPage } from '../../../../shared/domain/contacts/contact-activity.js';
import type { ContactRefValue } from '../../../../shared/domain/contacts/get-contact.js';
import { AppError } from '../../../../shared/errors.js';
import { contactRecord } from '../../support/contact-fixtures.js';
import { CLIENT_ID, engineHarness, NOW, type EngineHarness } from '../engine/engine-harness.js';

const SECRET = 's'.repeat(32);
const SECOND = 1000;
const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * SECOND).toISOString();

/** A contact's signup (at NOW), processed a second later (welcome + onboarding tips), the welcome sent a second after. */
async function signedUp(h: EngineHarness, step = SECOND) {
  const contact = await h.contact();
  const event = await h.ingest({ type: 'signup', email: contact.email });
  h.clock.advance(step);
  await h.process(event.id);
  h.clock.advance(step);
  const [welcomeId] = h.queue.sent.map((s) => (s.message as { execution_id: number }).execution_id);
  await h.execute(welcomeId!);
  const processed = (await h.stores.events.get(CLIENT_ID, event.id))!;
  const welcome = (await h.execution(welcomeId!))!;
  const tipsId = processed.execution_ids!.find((id) => id !== welcomeId)!;
  return { contact, event: processed, welcome, tips: (await h.execution(tipsId))! };
}

const list = (
  h: EngineHarness,
  ref: ContactRefValue,
  query: { limit: number; cursor?: string },
  clientId = CLIENT_ID,
) => listContactActivity({ ...h.stores, cursorSecret: SECRET }, clientId, ref, query);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('listContactActivity', () => {
  it("shows the contact's sent e-mail with its logs, the executions and the event, newest first", async () => {
    // Prepare
    const h = await engineHarness();
    const { contact, event, welcome, tips } = await signedUp(h);

    // Act
    const page = await list(h, { id: contact.id }, { limit: 20 });

    // Assess
    const log = (status: number, status_text: string, provider_message_id: string | null) => ({
      id: expect.any(String),
      created_at: at(2),
      status,
      status_text,
      provider_message_id,
      url: null,
      ip_address: null,
      user_agent: null,
      is_bot: false,
      bot_reason: null,
      detail: null,
    });
    expect(page).toEqual({
      contact_id: contact.id,
      items: [
        {
          kind: 'sent_email',
          at: at(2),
          id: welcome.sent_email_id,
          execution_id: welcome.id,
          workflow_id: 1,
          workflow_name: 'Welcome',
          broadcast_id: null,
          email_template_id: 1,
          email_template_name: 'Welcome',
          to_email: contact.email,
          subject: 'Welcome to Acme, Ann!',
          provider_message_id: 'ses-1',
          status: 2,
          status_text: 'sent',
          status_updated_at: at(2),
          logs: expect.any(Array),
        },
        // Both executions were created at one instant: the higher id first.
        ...[welcome, tips]
          .sort((a, b) => b.id - a.id)
          .map((e) => ({
            kind: 'execution',
            at: at(1),
            id: e.id,
            workflow_id: e.workflow_id,
            workflow_name: e.workflow_id === 1 ? 'Welcome' : 'Onboarding tips',
            broadcast_id: null,
            event_id: event.id,
            status: e.status,
            status_text: e.status === 3 ? 'completed' : 'queued',
            reason: e.status === 3 ? null : 'preferred_time',
            is_test: false,
            attempt: 1,
            retried_from: null,
            scheduled_for: e.scheduled_for,
            processed_at: e.status === 3 ? at(2) : null,
            sent_email_id: e.sent_email_id ?? null,
            updated_at: e.updated_at,
          })),
        {
          kind: 'event',
          at: NOW,
          id: event.id,
          type: 'signup',
          action: null,
          feature: null,
          plan: null,
          source: null,
          status: null,
          amount: null,
          upgrade: null,
          external_id: null,
          ts: NOW,
          processed_at: at(1),
          process_error: null,
          execution_ids: event.execution_ids,
        },
      ],
      next_cursor: null,
    });
    // Oldest first, as the store keeps them (`<created_at>#<log id>`): one instant here, so any order of the two.
    const logs = page.items[0]!.kind === 'sent_email' ? page.items[0]!.logs : [];
    expect([...logs].sort((a, b) => a.status - b.status)).toEqual([log(1, 'queued', null), log(2, 'sent', 'ses-1')]);
  });

  it('orders one instant by kind (sent e-mail, executions, event) and finds the contact by e-mail too', async () => {
    // Prepare
    const h = await engineHarness();
    const { contact } = await signedUp(h, 0);

    // Act
    const page = await list(h, { email: contact.email }, { limit: 20 });

    // Assess
    expect(page.items.map((i) => [i.kind, i.at])).toEqual([
      ['sent_email', NOW],
      ['execution', NOW],
      ['execution', NOW],
      ['event', NOW],
    ]);
  });

  it('shows the unsubscription in force where its time falls, and nothing of a subscribed contact', async () => {
    // Prepare
    const h = await engineHarness();
    const { contact } = await signedUp(h);
    const subscribed = await list(h, { id: contact.id }, { limit: 20 });
    await h.stores.contacts.updateSubscription(CLIENT_ID, contact.id, {
      is_subscribed: false,
      unsubscribe_reason: 'moved away',
      at: '2026-01-15T10:00:00.500+00:00',
    });

    // Act
    const page = await list(h, { id: contact.id }, { limit: 20 });

    // Assess
    expect(subscribed.items.map((i) => i.kind)).toEqual(['sent_email', 'execution', 'execution', 'event']);
    expect(page.items.map((i) => i.kind)).toEqual(['sent_email', 'execution', 'execution', 'subscription', 'event']);
    expect(page.items[3]).toEqual({
      kind: 'subscription',
      at: '2026-01-15T10:00:00.500Z',
      is_subscribed: false,
      reason: 'moved away',
    });
  });

  it("shows each topic's choice in force where its time falls, with how it was made; a later choice replaces the earlier", async () => {
    // Prepare
    const h = await engineHarness();
    const { contact } = await signedUp(h);
    await h.stores.contacts.updateSubscription(CLIENT_ID, contact.id, {
      is_subscribed: false,
      topic_id: 1,
      at: '2026-01-15T10:00:00.500Z',
    });
    await h.stores.contacts.updateSubscription(CLIENT_ID, contact.id, {
      is_subscribed: false,
      topic_id: 2,
      at: '2026-01-15T10:00:01.500Z',
    });
    await h.stores.contacts.updateSubscription(CLIENT_ID, contact.id, {
      is_subscribed: true,
      topic_id: 2,
      at: '2026-01-15T10:00:05.000Z',
    });

    // Act
    const page = await list(h, { id: contact.id }, { limit: 20 });

    // Assess
    expect(page.items.map((i) => i.kind)).toEqual(['topic', 'sent_email', 'execution', 'execution', 'topic', 'event']);
    expect(page.items[0]).toEqual({
      kind: 'topic',
      at: '2026-01-15T10:00:05.000Z',
      topic_id: 2,
      is_subscribed: true,
      via: 'api',
    });
    expect(page.items[4]).toEqual({
      kind: 'topic',
      at: '2026-01-15T10:00:00.500Z',
      topic_id: 1,
      is_subscribed: false,
      via: 'api',
    });
  });

  it.each([1, 2, 4])('walks every item exactly once, in order, %i a page, the last cursor null', async (limit) => {
    // Prepare
    const h = await engineHarness();
    const { contact } = await signedUp(h);
    await h.stores.contacts.updateSubscription(CLIENT_ID, contact.id, { is_subscribed: false, at: at(1) });
    await h.stores.contacts.updateSubscription(CLIENT_ID, contact.id, {
      is_subscribed: false,
      topic_id: 3,
      at: at(1.5),
    });
    const whole = await list(h, { id: contact.id }, { limit: 100 });

    // Act
    const pages: ContactActivityPage[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(h, { id: contact.id }, { limit, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && pages.length < 20);

    // Assess
    expect(whole.items).toHaveLength(6);
    expect(pages.flatMap((p) => p.items)).toEqual(whole.items);
    expect(pages.slice(0, -1).every((p) => p.items.length === limit)).toBe(true);
    expect(pages.at(-1)!.next_cursor).toBeNull();
  });

  it('answers 404 for a missing contact and for another client’s, by id and by e-mail', async () => {
    // Prepare
    const h = await engineHarness();
    const { contact } = await signedUp(h);
    await h.stores.contacts.create(
      contactRecord({ id: 500, client_id: CLIENT_ID + 1, email: 'other@example.com', client_contact_id: undefined }),
    );

    // Act
    const errors = await Promise.all([
      failure(list(h, { id: contact.id }, { limit: 20 }, CLIENT_ID + 1)),
      failure(list(h, { email: contact.email }, { limit: 20 }, CLIENT_ID + 1)),
      failure(list(h, { id: 500 }, { limit: 20 })),
      failure(list(h, { id: 999 }, { limit: 20 })),
      failure(list(h, { none: true }, { limit: 20 })),
    ]);

    // Assess
    for (const error of errors) {
      expect(error.status).toBe(404);
      expect(error.items).toEqual([{ condition: 'not_found', key: 'id', error: 'Contact not found' }]);
    }
  });

  it('refuses a cursor of another contact, another client, or one altered (422 format on cursor)', async () => {
    // Prepare
    const h = await engineHarness();
    const ann = await signedUp(h);
    h.queue.sent.length = 0;
    const bob = await signedUp(h);
    const cursor = (await list(h, { id: ann.contact.id }, { limit: 1 })).next_cursor!;
    const [payload, mac] = cursor.split('.') as [string, string];
    const moved = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), t: NOW }),
    ).toString('base64url');
    await h.stores.contacts.create(
      contactRecord({ id: ann.contact.id, client_id: CLIENT_ID + 1, client_contact_id: undefined }),
    );

    // Act
    const errors = await Promise.all([
      failure(list(h, { id: bob.contact.id }, { limit: 1, cursor })),
      failure(list(h, { id: ann.contact.id }, { limit: 1, cursor }, CLIENT_ID + 1)),
      failure(list(h, { id: ann.contact.id }, { limit: 1, cursor: `${moved}.${mac}` })),
      failure(list(h, { id: ann.contact.id }, { limit: 1, cursor: 'nonsense' })),
    ]);

    // Assess
    for (const error of errors) {
      expect(error.status).toBe(422);
      expect(error.items).toEqual([
        {
          condition: 'format',
          key: 'cursor',
          error: 'Not a cursor of this timeline (it belongs to another contact or client, or was altered)',
        },
      ]);
    }
  });
});
