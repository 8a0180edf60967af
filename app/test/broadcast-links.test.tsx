import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { BroadcastPage } from '../src/pages/broadcasts/broadcast-page.js';
import { AUDIENCE_READS, detailOf, ZERO_TOTALS } from './broadcast-fixtures.js';
import { as } from './contacts-fixtures.js';
import { fakeApi, ok } from './fake-api.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const sent = (over: Record<string, unknown>) =>
  detailOf({
    status: 'sent',
    started_at: '2026-11-28T21:00:00Z',
    completed_at: '2026-11-28T21:10:00Z',
    recipients: 400,
    totals: { ...ZERO_TOTALS, sent: 400, delivered: 396, human_clicks: 40, machine_clicks: 12 },
    ...over,
  });

describe('a broadcast’s links', () => {
  it('lists each link as text with its clicks by people and by machines, and says when more were clicked', async () => {
    fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok(
        sent({
          links: [
            { url: 'https://shop.example.com/november?utm_source=news', human_clicks: 31, machine_clicks: 2 },
            { url: 'https://mail.example.net/u/tok123', human_clicks: 9, machine_clicks: 10 },
          ],
          links_total: 3,
        }),
      ),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);

    const table = await screen.findByRole('region', { name: 'Links table' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Link', 'Clicks by people', 'Clicks by machines'],
      ['https://shop.example.com/november?utm_source=news', '31', '2'],
      ['https://mail.example.net/u/tok123', '9', '10'],
    ]);
    expect(within(table).getByText('The 2 most clicked of 3 links, by clicks by people')).toBeTruthy();
    // The client's addresses are shown, never opened from the dashboard.
    expect(within(table).queryAllByRole('link')).toEqual([]);
  });

  it('says no link was clicked yet', async () => {
    fakeApi({ ...AUDIENCE_READS, 'GET /api/v1/client/broadcasts/5': ok(sent({})) });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);
    const section = within(await screen.findByRole('region', { name: 'Links' }));
    expect(section.getByText('No link clicked yet.')).toBeTruthy();
  });
});
