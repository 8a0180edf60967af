import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { BroadcastPage } from '../src/pages/broadcasts/broadcast-page.js';
import { AUDIENCE_READS, abVariantOf, DEFINITION, detailOf, ZERO_TOTALS } from './broadcast-fixtures.js';
import { as } from './contacts-fixtures.js';
import { fakeApi, ok } from './fake-api.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A broadcast testing two subjects on 20 % of 1,000 contacts, opens by people deciding 4 hours after the start. */
const abBroadcast = (ab: Record<string, unknown>) =>
  detailOf({
    status: 'sending',
    started_at: '2026-11-28T21:00:00Z',
    recipients: 1000,
    definition: {
      ...DEFINITION,
      variants: [{ template_id: 12, subject: 'Our November news' }, { template_id: 13 }],
      ab: { test_percent: 20, metric: 'human_opens', decide_after_hours: 4 },
    },
    totals: { ...ZERO_TOTALS, sent: 200, delivered: 198, human_opens: 53 },
    ab: {
      test_percent: 20,
      metric: 'human_opens',
      decide_after_hours: 4,
      winner: null,
      decided_at: null,
      decided_rates: null,
      variants: [
        abVariantOf(0, { sent: 100, delivered: 100, human_opens: 22 }, 'Our November news'),
        abVariantOf(1, { sent: 100, delivered: 98, human_opens: 31 }, null),
      ],
      ...ab,
    },
  });

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.children].map((cell) => cell.textContent));

describe('a broadcast’s A/B test', () => {
  it('shows each variant’s sends and open rate among the test share, and when the winner will be chosen', async () => {
    fakeApi({ ...AUDIENCE_READS, 'GET /api/v1/client/broadcasts/5': ok(abBroadcast({})) });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);

    const section = within(await screen.findByRole('region', { name: 'A/B test' }));
    expect(
      section.getByText('Deciding at 2026-11-29 01:00:00 UTC, on opens by people per e-mail delivered.'),
    ).toBeTruthy();
    expect(section.getByText('20 % of the audience, split evenly; the other 80 % get the winner')).toBeTruthy();
    expect(section.getByText('4 hours after the start')).toBeTruthy();
    expect(rowsOf(section.getByRole('region', { name: 'A/B variants table' }))).toEqual([
      ['Variant', 'Sent', 'Delivered', 'Open rate'],
      ['A: Our November news template #12', '100', '100', '22.0 %'],
      ['B: the template’s subject template #13', '100', '98', '31.6 %'],
    ]);
  });

  it('names the winner with the rates it was chosen on once decided', async () => {
    fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok(
        abBroadcast({ winner: 1, decided_at: '2026-11-29T01:00:02Z', decided_rates: [0.22, 0.31] }),
      ),
    });
    render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);

    const section = within(await screen.findByRole('region', { name: 'A/B test' }));
    expect(section.getByText('Variant B won on opens by people: 31.0 % vs 22.0 %.')).toBeTruthy();
    expect(section.getByText('2026-11-29 01:00:02 UTC')).toBeTruthy();
    expect(rowsOf(section.getByRole('region', { name: 'A/B variants table' }))[2]?.[0]).toBe(
      'B (winner): the template’s subject template #13',
    );
  });

  it('says a tie went to the first variant, that a cancelled test chose none, and shows no test on a broadcast without one', async () => {
    fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok(
        abBroadcast({ winner: 0, decided_at: '2026-11-29T01:00:02Z', decided_rates: [0, 0] }),
      ),
      'GET /api/v1/client/broadcasts/6': ok(detailOf({ id: 6, status: 'sent', started_at: '2026-11-28T21:00:00Z' })),
    });
    const { unmount } = render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);
    expect(
      await screen.findByText('Variant A won, the first variant, by a tie on opens by people: 0.0 % each.'),
    ).toBeTruthy();
    unmount();

    fakeApi({
      ...AUDIENCE_READS,
      'GET /api/v1/client/broadcasts/5': ok({ ...abBroadcast({}), status: 'cancelled' }),
      'GET /api/v1/client/broadcasts/6': ok(detailOf({ id: 6, status: 'sent', started_at: '2026-11-28T21:00:00Z' })),
    });
    const again = render(<BroadcastPage api={createApi()} params={{ id: '5' }} signedIn={as('viewer')} />);
    expect(await screen.findByText('No winner was chosen: the broadcast was cancelled first.')).toBeTruthy();
    again.unmount();

    render(<BroadcastPage api={createApi()} params={{ id: '6' }} signedIn={as('viewer')} />);
    expect(await screen.findByRole('heading', { name: 'Progress' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'A/B test' })).toBeNull();
  });
});
