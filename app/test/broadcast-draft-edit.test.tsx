import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { BroadcastPage } from '../src/pages/broadcasts/broadcast-page.js';
import { AUDIENCE_READS, DEFINITION, detailOf } from './broadcast-fixtures.js';
import { as } from './contacts-fixtures.js';
import { type FakeCall, failure, fakeApi, ok } from './fake-api.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TEMPLATES = ok(
  {
    templates: [
      { id: 12, name: 'November news' },
      { id: 13, name: 'November news, short' },
    ],
  },
  { total: 2, total_pages: 1, page: 1, per_page: 100 },
);

const puts = (calls: FakeCall[]) => calls.filter((call) => call.method === 'PUT').map((call) => call.body);

/** Opens the draft's form once its template list has arrived. */
async function openEdit() {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit draft' }));
  const form = within(await screen.findByRole('form', { name: 'Edit draft' }));
  await waitFor(() => expect(within(form.getByLabelText('Template')).getAllByRole('option')).toHaveLength(3));
  return form;
}

describe('editing a draft broadcast', () => {
  it('fills the form from the draft, saves it whole with the version read, and shows what was saved', async () => {
    const calls = fakeApi({
      ...AUDIENCE_READS,
      'POST /api/v1/client/email-templates/list': TEMPLATES,
      'GET /api/v1/client/broadcasts/5': ok(detailOf()),
      'PUT /api/v1/client/broadcasts/5': (call) =>
        ok(
          detailOf({
            ...(call.body as object),
            draft_version: 2,
            updated_at: '2026-11-28T20:30:00Z',
          }),
        ),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);

    const form = await openEdit();
    expect(document.activeElement).toBe(form.getByLabelText('Name'));
    expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe('November news');
    expect((form.getByLabelText('Template') as HTMLSelectElement).value).toBe('12');
    await waitFor(() => expect((form.getByLabelText('Segment') as HTMLSelectElement).value).toBe('7'));
    fireEvent.input(form.getByLabelText('Name'), { target: { value: 'November news (final)' } });
    fireEvent.input(form.getByLabelText('Subject'), { target: { value: 'What is new in November' } });
    fireEvent.click(form.getByLabelText('At an hour of each contact’s own day'));
    fireEvent.input(form.getByLabelText('Date'), { target: { value: '2026-12-01' } });
    fireEvent.input(form.getByLabelText('Hour in each contact’s zone'), { target: { value: '09:00' } });
    fireEvent.click(form.getByRole('button', { name: 'Save draft' }));

    expect(await screen.findByText('Draft saved.')).toBeTruthy();
    expect(puts(calls)).toEqual([
      {
        name: 'November news (final)',
        definition: {
          ...DEFINITION,
          variants: [{ template_id: 12, subject: 'What is new in November' }],
          schedule: { mode: 'local_time', date: '2026-12-01', time: '09:00' },
        },
        draft_version: 1,
      },
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('November news (final)');
    const draft = within(screen.getByRole('region', { name: 'Draft' }));
    expect(draft.getByText('What is new in November')).toBeTruthy();
    expect(draft.getByText('on 2026-12-01 at 09:00 in each contact’s zone')).toBeTruthy();
  });

  it('keeps what the form does not show: an A/B test’s other variants, the conversion, the topic sent under', async () => {
    const saved = {
      ...DEFINITION,
      topic_id: 3,
      variants: [{ template_id: 12, subject: 'A' }, { template_id: 13 }],
      ab: { test_percent: 20, metric: 'conversions', decide_after_hours: 4 },
      conversion: { event: 'order_placed', window_days: 7 },
    };
    const calls = fakeApi({
      ...AUDIENCE_READS,
      'POST /api/v1/client/email-templates/list': TEMPLATES,
      'GET /api/v1/client/broadcasts/5': ok(detailOf({ definition: saved })),
      'PUT /api/v1/client/broadcasts/5': ok(detailOf({ definition: saved, draft_version: 2 })),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);

    const summary = within(await screen.findByRole('region', { name: 'Draft' }));
    expect(summary.getByText(/^A: #12, “A”; B: #13, “the template’s subject”\. Tested on 20 %/).textContent).toBe(
      'A: #12, “A”; B: #13, “the template’s subject”. Tested on 20 % of the audience; the winner on conversions per e-mail delivered, 4 h after the start, goes to the rest.',
    );
    const form = await openEdit();
    expect(form.getByText(/Template and subject here are variant A’s/)).toBeTruthy();
    fireEvent.input(form.getByLabelText('Subject'), { target: { value: 'A, again' } });
    fireEvent.click(form.getByRole('button', { name: 'Save draft' }));

    expect(await screen.findByText('Draft saved.')).toBeTruthy();
    expect(puts(calls)).toEqual([
      {
        name: 'November news',
        definition: { ...saved, variants: [{ template_id: 12, subject: 'A, again' }, { template_id: 13 }] },
        draft_version: 1,
      },
    ]);
  });

  it('says a draft saved meanwhile was not overwritten, and reads it again on request', async () => {
    let reads = 0;
    const calls = fakeApi({
      ...AUDIENCE_READS,
      'POST /api/v1/client/email-templates/list': TEMPLATES,
      'GET /api/v1/client/broadcasts/5': () => {
        reads += 1;
        return ok(reads === 1 ? detailOf() : detailOf({ name: 'Renamed in another tab', draft_version: 2 }));
      },
      'PUT /api/v1/client/broadcasts/5': failure(409, 'The draft changed since it was read: read it again', [
        { condition: 'state', error: 'The draft changed since it was read: read it again', key: 'draft_version' },
      ]),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);

    const form = await openEdit();
    fireEvent.input(form.getByLabelText('Name'), { target: { value: 'Mine' } });
    fireEvent.click(form.getByRole('button', { name: 'Save draft' }));

    expect((await form.findByRole('alert')).textContent).toContain('The draft changed since it was read');
    expect(form.getByText(/Nothing was saved: this broadcast changed since you opened it/)).toBeTruthy();
    fireEvent.click(form.getByRole('button', { name: 'Read the draft again' }));

    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Renamed in another tab'));
    expect(screen.queryByRole('form', { name: 'Edit draft' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit draft' })).toBeTruthy();
    expect(puts(calls)).toHaveLength(1);
  });

  it('offers a viewer no edit, and Cancel leaves the draft as it was', async () => {
    const calls = fakeApi({
      ...AUDIENCE_READS,
      'POST /api/v1/client/email-templates/list': TEMPLATES,
      'GET /api/v1/client/broadcasts/5': ok(detailOf()),
    });
    const { unmount } = render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);
    expect(await screen.findByRole('heading', { name: 'Draft' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit draft' })).toBeNull();
    unmount();

    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('member')} />);
    const form = await openEdit();
    fireEvent.input(form.getByLabelText('Name'), { target: { value: 'Not kept' } });
    fireEvent.click(form.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Draft' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('November news');
    expect(puts(calls)).toEqual([]);
  });
});
