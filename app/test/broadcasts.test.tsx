import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { BroadcastPage } from '../src/pages/broadcasts/broadcast-page.js';
import { BroadcastsPage } from '../src/pages/broadcasts/broadcasts-page.js';
import { as, TOPIC } from './contacts-fixtures.js';
import { type FakeAnswer, type FakeCall, fakeApi, ME, ok } from './fake-api.js';
import { DEFINITION, detailOf, ZERO_TOTALS } from './broadcast-fixtures.js';

const SEGMENTS = ok(
  { segments: [{ id: 7, name: 'Pro plan', status: 'ready', count: 1240, counted_at: null, version: 1 }] },
  { total: 1, max_segments: 50 },
);
const TOPICS = ok({ topics: [TOPIC] }, { total: 1, max_topics: 20 });
const TEMPLATES = ok(
  {
    templates: [
      { id: 1, name: 'Welcome' },
      { id: 12, name: 'November news' },
    ],
  },
  { total: 2, total_pages: 1, page: 1, per_page: 100 },
);

const broadcastOf = detailOf;

const sending = (sent: number, status = 'sending') =>
  broadcastOf({
    status,
    started_at: '2026-11-28T21:00:00Z',
    recipients: 400,
    totals: { ...ZERO_TOTALS, sent, delivered: sent - 10, human_opens: 7, skipped: 2, failed: 1 },
  });

const created = (data: unknown): FakeAnswer => ({
  status: 201,
  body: { data, errors: [], message: 'Created', meta: { request_id: 'r' }, success: true },
});

const changes = (calls: FakeCall[]) =>
  calls
    .filter((call) => call.method !== 'GET' && !call.path.endsWith('/email-templates/list'))
    .map((call) => [call.method, call.path, call.body]);

const common = {
  'GET /api/v1/client/segments': SEGMENTS,
  'GET /api/v1/client/topics': TOPICS,
  'GET /api/v1/client/broadcasts/5/recipients': ok({ recipients: [], next_cursor: null }),
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('the broadcasts page', () => {
  it('lists the broadcasts with status, audience by name and sent of the audience', async () => {
    fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts': ok({
        broadcasts: [
          sending(120),
          broadcastOf({ id: 4, name: 'Draft one', definition: { ...DEFINITION, audience: { all_subscribed: true } } }),
        ],
      }),
    });

    render(<BroadcastsPage api={createApi()} params={{}} signedIn={as('viewer')} />);

    const table = within(await screen.findByRole('region', { name: 'Broadcasts table' }));
    await waitFor(() => expect(table.getAllByRole('row')[1]?.textContent).toContain('Segment “Pro plan”'));
    const rows = table.getAllByRole('row').map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows[0]).toEqual(['Broadcast', 'Status', 'Audience', 'Sent / total', 'Starts']);
    expect(rows[1]?.slice(0, 4)).toEqual(['November news#5', 'sending', 'Segment “Pro plan”', '120 / 400']);
    expect(rows[2]?.slice(0, 4)).toEqual(['Draft one#4', 'draft', 'All subscribed contacts', '—']);
    expect(table.getByRole('link', { name: 'November news' }).getAttribute('href')).toBe('/app/broadcast/5');
    expect(screen.queryByRole('button', { name: 'Create draft' })).toBeNull();
  });

  it('creates a draft from the form: template, subject, segment, each contact’s local hour', async () => {
    // Prepare
    const calls = fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts': ok({ broadcasts: [] }),
      'POST /api/v1/client/email-templates/list': TEMPLATES,
      'POST /api/v1/client/broadcasts': created(broadcastOf({ id: 6 })),
    });
    render(<BroadcastsPage api={createApi()} params={{}} signedIn={as('member')} />);
    const template = await screen.findByLabelText('Template');
    await waitFor(() => expect(within(template).getAllByRole('option')).toHaveLength(3));

    // Act
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: ' November news ' } });
    fireEvent.change(template, { target: { value: '12' } });
    fireEvent.input(screen.getByLabelText('Subject'), { target: { value: 'What is new in November' } });
    const segment = screen.getByLabelText('Segment');
    await waitFor(() => expect(within(segment).getAllByRole('option')).toHaveLength(2));
    fireEvent.change(segment, { target: { value: '7' } });
    expect(screen.getByText('1,240 members now.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('At an hour of each contact’s own day'));
    fireEvent.input(screen.getByLabelText('Date'), { target: { value: '2026-12-01' } });
    const hour = screen.getByLabelText('Hour in each contact’s zone');
    fireEvent.input(hour, { target: { value: '09:00' } });
    expect(document.getElementById(hour.getAttribute('aria-describedby')!)!.textContent).toContain(
      'a zone whose hour has already passed gets it at that hour the next day',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create draft' }));

    // Assess
    await waitFor(() => expect(window.location.pathname).toBe('/app/broadcast/6'));
    expect(changes(calls)).toEqual([
      [
        'POST',
        '/api/v1/client/broadcasts',
        {
          name: 'November news',
          definition: {
            category: 'marketing',
            topic_id: null,
            audience: { segment_id: 7 },
            variants: [{ template_id: 12, subject: 'What is new in November' }],
            schedule: { mode: 'local_time', date: '2026-12-01', time: '09:00' },
          },
        },
      ],
    ]);
  });
});

describe('a draft broadcast', () => {
  it('schedules after a question naming the audience count, then shows the report', async () => {
    const calls = fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': ok(broadcastOf()),
      'POST /api/v1/client/broadcasts/5/schedule': ok(sending(0, 'snapshotting')),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('owner')} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Schedule' }));
    const question = await screen.findByRole('group', { name: 'Send “November news” to 1,240 contacts now?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Yes, schedule' }));

    expect(await screen.findByRole('heading', { name: 'Progress' })).toBeTruthy();
    expect(screen.getByText('Sending has started.')).toBeTruthy();
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/broadcasts/5/schedule', { draft_version: 1 }]]);
  });

  it('shows a member the draft but no Schedule (an owner or admin decides mail at volume)', async () => {
    fakeApi({ ...common, 'GET /api/v1/client/broadcasts/5': ok(broadcastOf()) });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);
    expect(await screen.findByRole('heading', { name: 'Draft' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Schedule' })).toBeNull();
    expect(screen.getByText(/An owner or an admin schedules broadcasts/)).toBeTruthy();
  });
});

describe('a started broadcast', () => {
  it('reads its totals again every 5 s while sending, and stops once paused', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    let paused = false;
    const calls = fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': () => {
        reads += 1;
        return ok(paused ? sending(250, 'paused') : sending(reads === 1 ? 100 : 250));
      },
      'POST /api/v1/client/broadcasts/5/pause': () => {
        paused = true;
        return ok(sending(250, 'paused'));
      },
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('owner')} />);

    await screen.findByRole('heading', { name: 'Progress' });
    const figures = () => document.getElementById('bc-totals')!.textContent;
    expect(figures()).toBe(
      'Audience400Sent100Delivered90Opened by people7Clicked by people0Deferred0Skipped2Failed1Bounced0',
    );
    expect((screen.getByLabelText('Sent of the audience') as HTMLProgressElement).value).toBe(100);

    await vi.advanceTimersByTimeAsync(5100);
    await waitFor(() => expect(figures()).toContain('Sent250'));
    expect(reads).toBe(2);

    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Paused: nothing more goes out until you resume.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();
    const before = reads;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(reads).toBe(before);
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/broadcasts/5/pause', undefined]]);
  });
});

describe('a broadcast’s test send and draft delete', () => {
  it('sends a test to the addresses chosen (one’s own first) and says what was sent', async () => {
    const calls = fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': ok(broadcastOf()),
      'GET /api/v1/client/users': ok({
        users: [
          { ...ME.user, updated_at: ME.user.created_at },
          { ...ME.user, id: 2, email: 'bob@example.com' },
        ],
      }),
      'POST /api/v1/client/broadcasts/5/test': (call) =>
        ok({
          sent: (call.body as { emails: string[] }).emails.map((email) => ({
            email,
            variant: 0,
            subject: '[Test] November news',
          })),
        }),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);

    const form = within(await screen.findByRole('form', { name: 'Test send' }));
    const own = form.getByLabelText(ME.user.email) as HTMLInputElement;
    expect(own.checked).toBe(true);
    fireEvent.click(await form.findByLabelText('bob@example.com'));
    fireEvent.click(form.getByRole('button', { name: 'Send test' }));

    expect(
      await form.findByText(
        `Sent 2 tests: “[Test] November news” to ${ME.user.email}; “[Test] November news” to bob@example.com.`,
      ),
    ).toBeTruthy();
    expect(changes(calls)).toEqual([
      ['POST', '/api/v1/client/broadcasts/5/test', { emails: [ME.user.email, 'bob@example.com'] }],
    ]);
  });

  it('shows the API’s refusal of a test (sending paused) and sends nothing else', async () => {
    fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': ok(sending(10)),
      'POST /api/v1/client/broadcasts/5/test': {
        status: 409,
        body: { message: 'Sending is paused for your account', errors: [{ condition: 'state', error: 'Paused' }] },
      },
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);
    const form = within(await screen.findByRole('form', { name: 'Test send' }));
    fireEvent.click(form.getByRole('button', { name: 'Send test' }));
    expect(await form.findByText(/Sending is paused for your account/)).toBeTruthy();
  });

  it('offers a viewer no test send, and deletes a draft after asking', async () => {
    const calls = fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': ok(broadcastOf()),
      'DELETE /api/v1/client/broadcasts/5': ok({ id: 5, deleted: true }),
    });
    const { unmount } = render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);
    expect(await screen.findByRole('heading', { name: 'Draft' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Test send' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete draft' })).toBeNull();
    unmount();

    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete draft' }));
    const question = await screen.findByRole('group', {
      name: 'Delete the draft “November news”? It cannot be undone.',
    });
    fireEvent.click(within(question).getByRole('button', { name: /^Yes/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/app/broadcasts'));
    expect(changes(calls)).toEqual([['DELETE', '/api/v1/client/broadcasts/5', undefined]]);
  });
});

describe('a started broadcast’s follow-ups', () => {
  const started = (over: Record<string, unknown> = {}) =>
    broadcastOf({
      status: 'sent',
      started_at: '2026-11-28T21:00:00Z',
      completed_at: '2026-11-28T21:10:00Z',
      recipients: 400,
      kind: 'broadcast',
      parent_id: null,
      resend_id: null,
      totals: { ...ZERO_TOTALS, sent: 398, delivered: 390, failed: 2 },
      ...over,
    });

  it('makes the resend to non-openers with its subject and delay, then opens it', async () => {
    const calls = fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': ok(started()),
      'POST /api/v1/client/broadcasts/5/resend': created(
        started({ id: 6, status: 'scheduled', kind: 'resend', parent_id: 5 }),
      ),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('owner')} />);
    const form = within(await screen.findByRole('form', { name: 'Resend to non-openers' }));
    fireEvent.input(form.getByLabelText('Subject'), { target: { value: 'Did you miss it?' } });
    fireEvent.input(form.getByLabelText('Hours after this broadcast’s start'), { target: { value: '24' } });
    fireEvent.click(form.getByRole('button', { name: 'Make the resend' }));
    await waitFor(() => expect(window.location.pathname).toBe('/app/broadcast/6'));
    expect(changes(calls)).toEqual([
      ['POST', '/api/v1/client/broadcasts/5/resend', { subject: 'Did you miss it?', after_hours: 24 }],
    ]);
  });

  it('retries the failed recipients after asking and says how many; links a resend both ways', async () => {
    const calls = fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': ok(started({ resend_id: 6 })),
      'POST /api/v1/client/broadcasts/5/retry-failed': {
        status: 202,
        body: { data: { broadcast_id: 5, retrying: 2 }, errors: [], message: 'Accepted', meta: {}, success: true },
      },
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('owner')} />);
    expect((await screen.findByRole('link', { name: 'broadcast #6' })).getAttribute('href')).toBe('/app/broadcast/6');
    // One resend a broadcast: no form once it has one.
    expect(screen.queryByRole('form', { name: 'Resend to non-openers' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry failed' }));
    const question = await screen.findByRole('group', {
      name: 'Send “November news” once more to its 2 failed recipients?',
    });
    fireEvent.click(within(question).getByRole('button', { name: /^Yes/ }));
    expect(await screen.findByText('Retrying 2 failed recipients: each is sent once more.')).toBeTruthy();
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/broadcasts/5/retry-failed', undefined]]);
  });

  it('offers a member neither, and nothing before the start or without failures', async () => {
    fakeApi({ ...common, 'GET /api/v1/client/broadcasts/5': ok(started()) });
    const { unmount } = render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);
    expect(await screen.findByRole('heading', { name: 'Progress' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Follow-ups' })).toBeNull();
    unmount();
    fakeApi({
      ...common,
      'GET /api/v1/client/broadcasts/5': ok(
        started({ status: 'scheduled', started_at: null, totals: ZERO_TOTALS, completed_at: null }),
      ),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('owner')} />);
    expect(await screen.findByRole('heading', { name: 'Progress' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Follow-ups' })).toBeNull();
  });
});
