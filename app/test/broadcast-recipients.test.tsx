import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { BroadcastPage } from '../src/pages/broadcasts/broadcast-page.js';
import { AUDIENCE_READS, detailOf, ZERO_TOTALS } from './broadcast-fixtures.js';
import { as } from './contacts-fixtures.js';
import { type FakeCall, failure, fakeApi, ok } from './fake-api.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

const SENT = detailOf({
  status: 'sent',
  started_at: '2026-11-28T21:00:00Z',
  completed_at: '2026-11-28T21:10:00Z',
  recipients: 3,
  totals: { ...ZERO_TOTALS, sent: 2, delivered: 2, human_opens: 1, human_clicks: 1, skipped: 1 },
});

const recipientOf = (over: Record<string, unknown>) => ({
  contact_id: 1,
  email: 'ann@example.com',
  execution_id: 100,
  sent_email_id: 'em-100',
  variant: null,
  status: 'delivered',
  reason: null,
  sent_at: '2026-11-28T21:01:00Z',
  human_opened: false,
  human_clicked: false,
  converted_at: null,
  ...over,
});

const FIRST_PAGE = [
  recipientOf({ status: 'clicked', human_opened: true, human_clicked: true }),
  recipientOf({ contact_id: 2, email: null, execution_id: 101, sent_email_id: 'em-101' }),
];
const SECOND_PAGE = [
  recipientOf({
    contact_id: 3,
    email: 'cat@example.com',
    execution_id: 102,
    sent_email_id: null,
    status: 'skipped',
    reason: 'unsubscribed',
    sent_at: null,
  }),
];

/** The recipients list, two pages: the first hands the cursor `c1` on. */
const recipientsAnswer = (call: FakeCall) =>
  call.query.get('cursor') === 'c1'
    ? ok({ recipients: SECOND_PAGE, next_cursor: null })
    : ok({ recipients: FIRST_PAGE, next_cursor: 'c1' });

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.children].map((cell) => cell.textContent));

describe('a broadcast’s recipients', () => {
  it('lists them a page at a time, Next following the cursor and First page going back', async () => {
    const calls = fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok(SENT),
      'GET /api/v1/client/broadcasts/5/recipients': recipientsAnswer,
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);

    const table = await screen.findByRole('region', { name: 'Recipients table' });
    expect(rowsOf(table)).toEqual([
      ['Contact', 'Status', 'Sent', 'By people', 'E-mail'],
      [
        'ann@example.com',
        'clicked',
        '2026-11-28 21:01:00 UTC',
        'opened, clicked',
        'View the e-mail to ann@example.com',
      ],
      ['#2 (erased)', 'delivered', '2026-11-28 21:01:00 UTC', '—', 'View the e-mail to this contact'],
    ]);
    expect(within(table).getByRole('link', { name: 'ann@example.com' }).getAttribute('href')).toBe('/app/contact/1');
    expect(within(table).getByRole('link', { name: 'View the e-mail to ann@example.com' }).getAttribute('href')).toBe(
      '/app/sent-email/em-100',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(rowsOf(screen.getByRole('region', { name: 'Recipients table' }))[1]).toEqual([
        'cat@example.com',
        'skipped (unsubscribed)',
        '—',
        '—',
        '—',
      ]),
    );
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'First page' }));
    await waitFor(() =>
      expect(rowsOf(screen.getByRole('region', { name: 'Recipients table' }))[1]?.[0]).toBe('ann@example.com'),
    );

    const reads = calls.filter((call) => call.path === '/api/v1/client/broadcasts/5/recipients');
    expect(reads.map((call) => [call.query.get('per_page'), call.query.get('cursor')])).toEqual([
      ['100', null],
      ['100', 'c1'],
      ['100', null],
    ]);
  });

  it('filters by status, and shows no list before the start', async () => {
    const calls = fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok(SENT),
      'GET /api/v1/client/broadcasts/6': ok(detailOf({ id: 6, status: 'scheduled' })),
      'GET /api/v1/client/broadcasts/5/recipients': (call) =>
        call.query.get('status') === 'skipped'
          ? ok({ recipients: SECOND_PAGE, next_cursor: null })
          : recipientsAnswer(call),
    });
    const { unmount } = render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);
    await screen.findByRole('region', { name: 'Recipients table' });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'skipped' } });
    await waitFor(() => expect(rowsOf(screen.getByRole('region', { name: 'Recipients table' }))).toHaveLength(2));
    expect(calls.at(-1)?.query.get('status')).toBe('skipped');
    unmount();

    render(<BroadcastPage api={createApi()} params={{ id: '6' }} signedIn={as('viewer')} />);
    expect(await screen.findByRole('heading', { name: 'Progress' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Recipients' })).toBeNull();
  });

  it('downloads every page of the CSV export joined into one file, each page’s header row but the first dropped', async () => {
    const calls = fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok(SENT),
      'GET /api/v1/client/broadcasts/5/recipients': recipientsAnswer,
    });
    // The export answers CSV with the next page's cursor in a header, which the JSON fake does not write.
    const json = globalThis.fetch;
    const exports: URL[] = [];
    const HEADER = 'contact_id,email,status\n';
    vi.stubGlobal('fetch', async (request: Request) => {
      const url = new URL(request.url);
      if (!url.pathname.endsWith('/recipients/export')) return json(request);
      exports.push(url);
      return url.searchParams.get('cursor') === 'x1'
        ? new Response(`${HEADER}3,cat@example.com,"skipped\nby a rule"\n`, { headers: { 'content-type': 'text/csv' } })
        : new Response(`${HEADER}1,ann@example.com,clicked\n2,,delivered\n`, {
            headers: { 'content-type': 'text/csv', 'x-next-cursor': 'x1' },
          });
    });
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          blobs.push(blob);
          return 'blob:http://localhost/1';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));

    expect(await screen.findByText('Downloaded 3 recipients as CSV.')).toBeTruthy();
    expect(exports.map((url) => [url.pathname, url.searchParams.get('cursor')])).toEqual([
      ['/api/v1/client/broadcasts/5/recipients/export', null],
      ['/api/v1/client/broadcasts/5/recipients/export', 'x1'],
    ]);
    expect(clicked).toEqual([{ href: 'blob:http://localhost/1', download: 'broadcast-5-recipients.csv' }]);
    expect(blobs).toHaveLength(1);
    expect(await blobs[0]!.text()).toBe(
      `${HEADER}1,ann@example.com,clicked\n2,,delivered\n3,cat@example.com,"skipped\nby a rule"\n`,
    );
    expect(calls.filter((call) => call.path.endsWith('/export'))).toEqual([]);
  });

  it('shows the API’s refusal of the export and downloads nothing', async () => {
    fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok(SENT),
      'GET /api/v1/client/broadcasts/5/recipients': recipientsAnswer,
      'GET /api/v1/client/broadcasts/5/recipients/export': failure(429, 'Too many requests: try again in a minute'),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many requests: try again in a minute');
    expect(click).not.toHaveBeenCalled();
  });
});
