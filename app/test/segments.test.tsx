import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { SegmentPage } from '../src/pages/segments/segment-page.js';
import { SegmentsPage } from '../src/pages/segments/segments-page.js';
import { as } from './contacts-fixtures.js';
import { type FakeAnswer, type FakeCall, failure, fakeApi, ok } from './fake-api.js';

const PRO = {
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
};

const segmentOf = (over: Record<string, unknown> = {}) => ({
  id: 7,
  name: 'Pro plan',
  description: '',
  status: 'ready',
  count: 1240,
  counted_at: '2026-11-28T21:00:00Z',
  version: 1,
  backfill: {
    version: 1,
    scanned: 5000,
    shards_done: 8,
    shards: 8,
    done: true,
    started_at: '2026-11-28T20:00:00Z',
    finished_at: '2026-11-28T20:01:00Z',
  },
  definition: PRO,
  created_at: '2026-11-28T20:00:00Z',
  updated_at: '2026-11-28T20:00:00Z',
  ...over,
});

const created = (data: unknown): FakeAnswer => ({
  status: 201,
  body: { data, errors: [], message: 'Created', meta: { request_id: 'r' }, success: true },
});

const changes = (calls: FakeCall[]) =>
  calls
    .filter((call) => call.method !== 'GET' && !call.path.endsWith('/preview'))
    .map((call) => [call.method, call.path, call.body]);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('the segments page', () => {
  it('lists the segments with their members, when counted and whether they are still building', async () => {
    fakeApi({
      'GET /api/v1/client/segments': ok(
        {
          segments: [
            segmentOf(),
            segmentOf({ id: 8, name: 'Dormant', status: 'building', count: 12, backfill: undefined }),
          ],
        },
        { total: 2, max_segments: 50 },
      ),
    });

    render(<SegmentsPage api={createApi()} params={{}} signedIn={as('viewer')} />);

    const table = within(await screen.findByRole('region', { name: 'Segments table' }));
    const rows = table.getAllByRole('row').map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows[0]).toEqual(['Segment', 'Members', 'Counted', 'Status']);
    expect(rows[1]?.[0]).toBe('Pro plan#7');
    expect(rows[1]?.[1]).toBe('1,240');
    expect(rows[1]?.[3]).toBe('ready');
    expect(rows[2]?.[3]).toBe('building');
    expect(table.getByRole('link', { name: 'Pro plan' }).getAttribute('href')).toBe('/app/segment/7');
    expect(table.getByText('2 of at most 50 segments')).toBeTruthy();
    // A viewer reads them: no form to write one.
    expect(screen.queryByRole('button', { name: 'Create segment' })).toBeNull();
  });

  it('counts the typed conditions once typing pauses, lists the refused ones by path, and creates the segment', async () => {
    // Prepare: the preview refuses a count of -1 at its path, samples an `any` and counts anything else exactly.
    const calls = fakeApi({
      'GET /api/v1/client/segments': ok({ segments: [] }, { total: 0, max_segments: 50 }),
      'POST /api/v1/client/segments/preview': (call) => {
        const text = JSON.stringify(call.body);
        return text.includes('"match":"any"')
          ? ok({ count: 1240, exact: false, sampled: 5000, share: 0.248 })
          : text.includes('"count":-1')
            ? failure(422, 'The segment has 1 issue', [
                {
                  condition: 'min',
                  error: 'At least 1',
                  key: 'definition.groups.0.conditions.0.count',
                },
              ])
            : ok({ count: 3, exact: true, sampled: 3, share: 1 });
      },
      'POST /api/v1/client/segments': created(segmentOf({ id: 9, status: 'building' })),
    });
    render(<SegmentsPage api={createApi()} params={{}} signedIn={as('member')} />);
    const count = () => document.getElementById('sg-new-definition-count')!;

    // The starter text (custom field plan = pro) is counted.
    await waitFor(() => expect(count().textContent).toBe('3 contacts match now.'));
    expect(count().getAttribute('role')).toBe('status');

    // Act: typing a refused count, then text that is not JSON, then a sampled one.
    const text = screen.getByLabelText('Conditions as JSON') as HTMLTextAreaElement;
    const refused = {
      match: 'all',
      groups: [{ match: 'all', conditions: [{ on: 'event_count', event: 'login', op: 'at_least', count: -1 }] }],
    };
    fireEvent.input(text, { target: { value: JSON.stringify(refused, null, 2) } });
    const issue = await screen.findByRole('button', { name: 'Show groups.0.conditions.0.count in the JSON' });
    expect(issue.parentElement!.textContent).toBe('groups.0.conditions.0.count At least 1 (min)');
    expect(count().textContent).toBe('No count: one issue to fix (listed above).');
    fireEvent.click(issue);
    expect(text.value.slice(text.selectionStart, text.selectionEnd)).toBe('"count": -1');

    fireEvent.input(text, { target: { value: '{ "match": ' } });
    expect(await screen.findByRole('heading', { name: /^Not JSON/ })).toBeTruthy();
    expect(count().textContent).toBe('The count needs the text to be JSON.');

    const sampled = { ...PRO, match: 'any' };
    fireEvent.input(text, { target: { value: JSON.stringify(sampled) } });
    await waitFor(() => expect(count().textContent).toBe('≈ 1,240 of 5,000 contacts sampled match now.'));
    expect(screen.queryByRole('heading', { name: /Issues|Not JSON/ })).toBeNull();

    fireEvent.input(screen.getByLabelText('Name'), { target: { value: ' Pro plan ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create segment' }));

    // Assess: only the last text was asked about (the keystrokes before it were aborted while pausing).
    await waitFor(() => expect(window.location.pathname).toBe('/app/segment/9'));
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/segments', { name: 'Pro plan', definition: sampled }]]);
    const asked = calls.filter((call) => call.path.endsWith('/preview')).map((call) => call.body);
    expect(asked).toEqual([{ definition: PRO }, { definition: refused }, { definition: sampled }]);
  });

  it('shows a refused create’s issues at the top by path and its other items in the alert', async () => {
    fakeApi({
      'GET /api/v1/client/segments': ok({ segments: [] }, { total: 0, max_segments: 50 }),
      'POST /api/v1/client/segments/preview': ok({ count: 0, exact: true, sampled: 0, share: 0 }),
      'POST /api/v1/client/segments': failure(422, 'The segment has 2 issues', [
        { condition: 'reference', error: 'No topic 99', key: 'definition.groups.0.conditions.0' },
        { condition: 'unique', error: 'Another segment has this name', key: 'name' },
      ]),
    });
    render(<SegmentsPage api={createApi()} params={{}} signedIn={as('member')} />);
    await screen.findByText('0 contacts match now.');

    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Pro plan' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create segment' }));

    expect(await screen.findByRole('button', { name: 'Show groups.0.conditions.0 in the JSON' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('The segment has 2 issues');
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('a segment’s page', () => {
  it('shows the backfill’s progress while building and reads it again until the segment is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    fakeApi({
      'GET /api/v1/client/segments/7': () => {
        reads += 1;
        return reads === 1
          ? ok(
              segmentOf({
                status: 'building',
                count: 40,
                backfill: {
                  version: 1,
                  scanned: 2000,
                  shards_done: 2,
                  shards: 8,
                  done: false,
                  started_at: '2026-11-28T20:00:00Z',
                  finished_at: null,
                },
              }),
            )
          : ok(segmentOf());
      },
      'POST /api/v1/client/segments/preview': ok({ count: 1240, exact: true, sampled: 1240, share: 1 }),
    });
    try {
      render(<SegmentPage api={createApi()} params={{ id: '7' }} signedIn={as('viewer')} />);

      const progress = (await screen.findByLabelText('Reading your contacts for version 1')) as HTMLProgressElement;
      expect([progress.tagName, progress.value, progress.max]).toEqual(['PROGRESS', 2, 8]);
      expect(screen.getByText(/2,000 contacts read so far \(2 of 8 parts of the contact list done\)/)).toBeTruthy();
      expect(screen.getByRole('heading', { level: 1 }).nextElementSibling!.textContent).toBe('building 25 %');

      await vi.advanceTimersByTimeAsync(3100);

      await waitFor(() => expect(screen.queryByLabelText('Reading your contacts for version 1')).toBeNull());
      expect(reads).toBe(2);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(reads).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('saves changed conditions with the version read, and only the name when they did not change', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/segments/7': ok(segmentOf()),
      'POST /api/v1/client/segments/preview': ok({ count: 1240, exact: true, sampled: 1240, share: 1 }),
      'PATCH /api/v1/client/segments/7': (call) => {
        const body = call.body as { name: string; definition?: unknown };
        return ok(
          segmentOf({
            name: body.name,
            version: body.definition ? 2 : 1,
            status: body.definition ? 'building' : 'ready',
            definition: body.definition ?? PRO,
          }),
        );
      },
    });
    render(<SegmentPage api={createApi()} params={{ id: '7' }} signedIn={as('member')} />);
    await screen.findByText('1,240 contacts match now.');

    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Pro customers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save segment' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();

    const changed = { ...PRO, match: 'any' };
    fireEvent.input(screen.getByLabelText('Conditions as JSON'), { target: { value: JSON.stringify(changed) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save segment' }));
    expect(await screen.findByText('Saved as a new version: its members are being found again.')).toBeTruthy();

    expect(changes(calls)).toEqual([
      ['PATCH', '/api/v1/client/segments/7', { name: 'Pro customers', description: '', version: 1 }],
      [
        'PATCH',
        '/api/v1/client/segments/7',
        { name: 'Pro customers', description: '', version: 1, definition: changed },
      ],
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pro customers');
  });

  it('lists the members a page at a time: Next follows the cursor, First page goes back', async () => {
    const member = (id: number) => ({
      id,
      email: `c${id}@example.com`,
      first_name: 'Ann',
      last_name: null,
      entered_at: '2026-11-28T21:00:00Z',
    });
    const calls = fakeApi({
      'GET /api/v1/client/segments/7': ok(segmentOf()),
      'POST /api/v1/client/segments/preview': ok({ count: 1240, exact: true, sampled: 1240, share: 1 }),
      'GET /api/v1/client/segments/7/contacts': (call) =>
        call.query.get('cursor') === 'c2'
          ? ok({ contacts: [member(3)], next_cursor: null })
          : ok({ contacts: [member(1), member(2)], next_cursor: 'c2' }),
    });
    const api = createApi();
    const { rerender } = render(<SegmentPage api={api} params={{ id: '7' }} signedIn={as('viewer')} />);
    const tab = await screen.findByRole('tab', { name: 'Members' });
    expect(screen.getByRole('tab', { name: 'Conditions' }).getAttribute('aria-selected')).toBe('true');

    // The arrow key moves to the other tab, as in a journey's views; the tab rides in the address.
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Conditions' }), { key: 'ArrowRight' });
    expect(window.location.search).toBe('?tab=members');
    expect(document.activeElement).toBe(tab);
    rerender(<SegmentPage api={api} params={{ id: '7', tab: 'members' }} signedIn={as('viewer')} />);
    expect(tab.getAttribute('aria-selected')).toBe('true');
    const table = await screen.findByRole('region', { name: 'Members table' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getByRole('link', { name: 'c1@example.com' }).getAttribute('href')).toBe('/app/contact/1');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Members table' })).getAllByRole('row')).toHaveLength(2),
    );
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'First page' }));
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Members table' })).getAllByRole('row')).toHaveLength(3),
    );

    const pages = calls.filter((call) => call.path.endsWith('/contacts')).map((call) => call.query.toString());
    expect(pages).toEqual(['per_page=100', 'per_page=100&cursor=c2', 'per_page=100']);
  });
});
