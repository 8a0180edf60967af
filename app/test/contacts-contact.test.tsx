import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { ContactPage } from '../src/pages/contacts/contact-page.js';
import { confirms } from '../src/pages/contacts/erase-card.js';
import { as, contactOf, logOf, SENT_ID, TOPIC } from './contacts-fixtures.js';
import { failure, fakeApi, type FakeAnswer, type FakeCall, ok } from './fake-api.js';

const AT = '2026-11-26T09:00:00.000Z';
const EVENT = {
  kind: 'event',
  at: AT,
  id: 900,
  type: 'signup',
  action: null,
  feature: null,
  plan: 'pro',
  source: null,
  status: null,
  amount: null,
  upgrade: null,
  external_id: null,
  ts: AT,
  processed_at: AT,
  process_error: null,
  execution_ids: [77],
};
const EXECUTION = {
  kind: 'execution',
  at: AT,
  id: 77,
  workflow_id: 1,
  workflow_name: 'Welcome',
  event_id: 900,
  status: 4,
  status_text: 'failed',
  reason: 'MessageRejected: Email address is on the suppression list',
  is_test: false,
  attempt: 1,
  retried_from: null,
  scheduled_for: AT,
  processed_at: AT,
  sent_email_id: SENT_ID,
  updated_at: AT,
};
const SENT = {
  kind: 'sent_email',
  at: AT,
  id: SENT_ID,
  execution_id: 77,
  workflow_id: 1,
  workflow_name: 'Welcome',
  email_template_id: 5,
  email_template_name: 'Welcome',
  to_email: 'ada@example.com',
  subject: 'Welcome aboard',
  provider_message_id: 'ses-1',
  status: 4,
  status_text: 'opened',
  status_updated_at: AT,
  logs: [
    logOf(1, 'queued'),
    logOf(4, 'opened', { is_bot: true, bot_reason: 'apple_mail_privacy' }),
    logOf(4, 'opened'),
  ],
};
const TOPIC_CHOICE = {
  kind: 'topic',
  at: '2026-11-25T09:00:00.000Z',
  topic_id: 3,
  is_subscribed: false,
  via: 'preference_page',
};

function answers(extra: Record<string, FakeAnswer | ((call: FakeCall) => FakeAnswer)> = {}) {
  return {
    'GET /api/v1/client/contacts/42': ok(contactOf()),
    'GET /api/v1/client/topics': ok({ topics: [TOPIC] }),
    'GET /api/v1/client/contacts/42/activity': (call: FakeCall) =>
      call.query.get('cursor') === 'older'
        ? ok({ contact_id: 42, items: [TOPIC_CHOICE], next_cursor: null })
        : ok({ contact_id: 42, items: [SENT, EXECUTION, EVENT], next_cursor: 'older' }),
    ...extra,
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the contact page', () => {
  it('shows the fields, tags, health score and subscriptions', async () => {
    fakeApi(answers());

    render(<ContactPage api={createApi()} params={{ id: '42' }} signedIn={as('owner')} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'ada@example.com' })).toBeTruthy();
    const fields = screen.getByRole('region', { name: 'Fields' });
    expect(fields.textContent).toContain('NameAda Lovelace');
    expect(fields.textContent).toContain('Sourceapi (landing)');
    expect(fields.textContent).toContain('plan_tierpro');
    expect(
      within(fields)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['beta', 'vip']);
    expect(screen.getByRole('region', { name: 'Health and engagement' }).textContent).toContain('72 / 100');
    const subscription = screen.getByRole('region', { name: 'Subscription' });
    expect(subscription.textContent).toContain('Subscribed to marketing mail');
    expect(within(subscription).getByRole('list', { name: 'Topics' }).textContent).toContain(
      'Product news: subscribed',
    );
  });

  it('shows the activity newest first, the e-mail linked with its status logs and bot marks, and pages to older activity', async () => {
    // Prepare
    const calls = fakeApi(answers());
    render(<ContactPage api={createApi()} params={{ id: '42' }} signedIn={as('owner')} />);
    const timeline = await screen.findByRole('list', { name: 'Activity, newest first' });

    // Assess: the first page
    const items = within(timeline)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === timeline);
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByRole('link', { name: 'Welcome aboard' }).getAttribute('href')).toBe(
      `/app/sent-email/${SENT_ID}`,
    );
    const logs = within(items[0]!).getByRole('list', { name: 'Status of "Welcome aboard"' });
    expect(
      within(logs)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '2026-11-26 09:00:01 UTC queued',
      '2026-11-26 09:00:01 UTC opened by a machine: Apple Mail Privacy Protection preloads every image apple_mail_privacy',
      '2026-11-26 09:00:01 UTC opened by a person',
    ]);
    expect(items[1]!.textContent).toBe(
      '2026-11-26 09:00:00 UTC Workflow run #77 of Welcome: failed — MessageRejected: Email address is on the suppression list (failed runs of this workflow)',
    );
    expect(within(items[1]!).getByRole('link').getAttribute('href')).toBe('/app/executions?status=4&workflow_id=1');
    expect(items[2]!.textContent).toBe('2026-11-26 09:00:00 UTC Event signup (pro) — started workflow run #77');

    // Act: the next page
    fireEvent.click(screen.getByRole('button', { name: 'Show older activity' }));

    // Assess: added below, and no more pages
    await waitFor(() =>
      expect(
        within(timeline)
          .getAllByRole('listitem')
          .filter((li) => li.parentElement === timeline),
      ).toHaveLength(4),
    );
    expect(timeline.lastElementChild!.textContent).toBe(
      '2026-11-25 09:00:00 UTC Left the topic Product news (preference page)',
    );
    const asked = calls.filter((call) => call.path.endsWith('/activity')).map((call) => Object.fromEntries(call.query));
    expect(asked).toEqual([{ limit: '20' }, { limit: '20', cursor: 'older' }]);
    expect(screen.queryByRole('button', { name: 'Show older activity' })).toBeNull();
  });

  it('unsubscribes from a topic and from all marketing mail, and reads the timeline again', async () => {
    // Prepare
    const calls = fakeApi(
      answers({
        'PATCH /api/v1/client/contacts/42/subscription': (call) => {
          const body = call.body as { is_subscribed: boolean; topic_id?: number };
          return body.topic_id
            ? ok(contactOf({ topic_subscriptions: [{ topic_id: 3, is_subscribed: body.is_subscribed }] }))
            : ok(contactOf({ is_subscribed: false, unsubscribed_at: AT, unsubscribe_reason: 'asked by phone' }));
        },
      }),
    );
    render(<ContactPage api={createApi()} params={{ id: '42' }} signedIn={as('member')} />);

    // Act: the topic
    fireEvent.click(await screen.findByRole('button', { name: 'Unsubscribe from Product news' }));

    // Assess
    expect(await screen.findByRole('button', { name: 'Subscribe to Product news' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Unsubscribed from Product news.');
    const patches = () => calls.filter((call) => call.method === 'PATCH');
    expect(patches()[0]!.body).toEqual({ is_subscribed: false, topic_id: 3 });
    expect(patches()[0]!.headers.get('content-type')).toContain('application/json');
    await waitFor(() => expect(calls.filter((call) => call.path.endsWith('/activity'))).toHaveLength(2));

    // Act: all marketing mail, with a reason
    fireEvent.input(screen.getByLabelText('Reason (optional)'), { target: { value: 'asked by phone' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe from all marketing mail' }));

    // Assess
    expect(await screen.findByRole('button', { name: 'Subscribe again' })).toBeTruthy();
    expect(patches()[1]!.body).toEqual({ is_subscribed: false, unsubscribe_reason: 'asked by phone' });
    expect(screen.getByRole('region', { name: 'Subscription' }).textContent).toContain(
      'Since 2026-11-26 09:00:00 UTC, reason: asked by phone',
    );
  });

  it("shows a refused topic change at the topic (the API's error item), the rest in the alert", async () => {
    fakeApi(
      answers({
        'PATCH /api/v1/client/contacts/42/subscription': failure(404, 'Not found', [
          { condition: 'not_found', error: 'No such topic', key: 'topic_id' },
        ]),
      }),
    );
    render(<ContactPage api={createApi()} params={{ id: '42' }} signedIn={as('owner')} />);

    const button = await screen.findByRole('button', { name: 'Unsubscribe from Product news' });
    fireEvent.click(button);

    await screen.findByRole('alert');
    await waitFor(() => expect(button.getAttribute('aria-describedby')).toBe('ct-topic-3-error'));
    expect(document.getElementById('ct-topic-3-error')!.textContent).toBe('No such topic');
    expect(screen.getByRole('alert').textContent).toBe('Not found');
  });

  it('erases only once the e-mail address is typed, then says what was removed', async () => {
    // Prepare
    const erasure = {
      id: 42,
      erased: true,
      already_erased: false,
      contact: 1,
      locks: 2,
      suppression_marker: false,
      events: 3,
      executions: 1,
      executions_cancelled: 1,
      sent_emails: 1,
      logs: 3,
      erased_at: AT,
    };
    const calls = fakeApi(answers({ 'DELETE /api/v1/client/contacts/42': ok(erasure) }));
    render(<ContactPage api={createApi()} params={{ id: '42' }} signedIn={as('member')} />);
    const erase = (await screen.findByRole('button', { name: 'Erase this contact' })) as HTMLButtonElement;
    const confirm = screen.getByLabelText('Type ada@example.com to confirm');

    // Act + Assess: a wrong address leaves the button off, and Enter does nothing
    expect(erase.disabled).toBe(true);
    fireEvent.input(confirm, { target: { value: 'ada@example.co' } });
    expect(erase.disabled).toBe(true);
    fireEvent.submit(confirm.closest('form')!);
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    // Act: the address, as typed by a person
    fireEvent.input(confirm, { target: { value: ' ADA@example.com ' } });
    expect(erase.disabled).toBe(false);
    fireEvent.click(erase);

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact #42 erased' })).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/api/v1/client/contacts/42',
    ]);
    expect(screen.getByRole('status').textContent).toContain('Queued runs cancelled1');
  });

  it('shows a viewer everything and no control that changes anything', async () => {
    fakeApi(answers());

    render(<ContactPage api={createApi()} params={{ id: '42' }} signedIn={as('viewer')} />);

    await screen.findByRole('list', { name: 'Activity, newest first' });
    expect(screen.getByRole('region', { name: 'Subscription' }).textContent).toContain('Product news: subscribed');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Show older activity']);
    expect(screen.queryByRole('region', { name: 'Erase this contact' })).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it("shows the API's refusal of a contact that does not exist", async () => {
    fakeApi(
      answers({
        'GET /api/v1/client/contacts/42': failure(404, 'Contact not found', [
          { condition: 'not_found', error: 'No contact 42', key: 'id' },
        ]),
      }),
    );

    render(<ContactPage api={createApi()} params={{ id: '42' }} signedIn={as('owner')} />);

    expect((await screen.findByRole('alert')).textContent).toBe('Contact not foundid No contact 42');
  });
});

describe('confirms', () => {
  it.each([
    ['ada@example.com', true],
    ['  Ada@Example.COM ', true],
    ['ada@example.co', false],
    ['', false],
  ])('%j names ada@example.com: %s', (typed, expected) => {
    expect(confirms(typed, 'ada@example.com')).toBe(expected);
  });
});
