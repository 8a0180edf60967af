import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { rangeOf } from '../src/components/stats-figures.js';
import { OverviewPage } from '../src/pages/overview.js';
import { failure, fakeApi, ok, type FakeCall } from './fake-api.js';
import { accountStatsOf as stats, counts } from './stats-fixtures.js';
import { charts } from './uplot-fake.js';

vi.mock('uplot', () => import('./uplot-fake.js'));

const deliverability = (status: string, extra: Record<string, unknown> = {}) => ({
  deliverability: {
    window_days: 30,
    sends: 4,
    bounces: 1,
    complaints: 0,
    bounce_rate: 0.25,
    complaint_rate: 0,
    status,
    paused_at: null,
    paused_reason: null,
    ...extra,
  },
});

const sendingOf = (overrides: Record<string, unknown>) => ({
  from_address: 'onboarding@sandbox.email-lifecycle.example',
  from_name: 'Demo Co',
  from_status: 'unset',
  sandbox: true,
  verified_domains: [],
  problems: [],
  tenant: { name: 'els-client-1', status: 'enabled', paused_reason: null, paused_at: null },
  ...overrides,
});

function answers(statsBody: unknown, settingsBody: unknown, failed = 0) {
  return {
    'GET /api/v1/client/stats': ok(statsBody),
    'GET /api/v1/client/settings': ok(settingsBody),
    'GET /api/v1/client/executions': ok(
      { executions: [] },
      { page: 1, per_page: 1, total: failed, total_pages: failed },
    ),
  };
}

beforeEach(() => {
  charts.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the overview', () => {
  it("charts the last 30 days' sent, delivered, human opens and clicks, bounces and complaints", async () => {
    // Prepare
    const body = stats(
      [
        { period: '2026-11-25', counts: counts({ sent: 3, delivered: 2, opened: 1, bot_opened: 2, bounced_hard: 1 }) },
        {
          period: '2026-11-26',
          counts: counts({ sent: 1, delivered: 1, clicked: 1, bot_clicked: 5, bounced_soft: 1, complained: 1 }),
        },
      ],
      { signup: 4 },
    );
    const calls = fakeApi(answers(body, deliverability('healthy'), 2));

    // Act
    render(<OverviewPage api={createApi()} />);

    // Assess
    await screen.findByRole('heading', { name: 'Rates, last 30 days' });
    await waitFor(() => expect(charts).toHaveLength(1));
    expect(charts[0]!.options.series.map((s) => s.label)).toEqual([
      'Day',
      'Sent',
      'Delivered',
      'Human opens',
      'Human clicks',
      'Bounces',
      'Complaints',
    ]);
    expect(charts[0]!.data).toEqual([
      [Date.parse('2026-11-25T00:00:00Z') / 1000, Date.parse('2026-11-26T00:00:00Z') / 1000],
      [3, 1],
      [2, 1],
      [1, 0],
      [0, 1],
      [1, 1],
      [0, 1],
    ]);
    // The same figures as a table, newest day first.
    const table = screen.getByRole('table', { name: 'E-mails per UTC day, last 30 days' });
    expect(within(table).getAllByRole('row')[1]!.textContent).toBe('2026-11-26110111');
    const statsCall = calls.find((call) => call.path === '/api/v1/client/stats')!;
    expect(Object.fromEntries(statsCall.query)).toEqual(rangeOf(30));
    const failedCall = calls.find((call) => call.path === '/api/v1/client/executions')!;
    expect(Object.fromEntries(failedCall.query)).toEqual({ status: '4', per_page: '1' });
  });

  it('shows the rates with machine opens and clicks apart, deliverability and the failed executions', async () => {
    const body = stats(
      [{ period: '2026-11-26', counts: counts({ sent: 4, delivered: 3, opened: 2, bot_opened: 3, bot_clicked: 7 }) }],
      {},
    );
    fakeApi(answers(body, deliverability('warning'), 2));

    render(<OverviewPage api={createApi()} />);

    const rates = await screen.findByRole('region', { name: 'Rates, last 30 days' });
    expect(rates.textContent).toContain('Human opens2 (50.0 %)');
    expect(rates.textContent).toContain('Bot opens3 (40.0 % of all opens)');
    expect(rates.textContent).toContain('Bot clicks7');
    const health = screen.getByRole('region', { name: 'Deliverability, last 30 days' });
    expect(health.textContent).toContain('Warning: half-way to a limit');
    expect(health.textContent).toContain('25.0 % of 4 sends; SES reviews accounts at 5.0 %');
    expect(screen.getByRole('region', { name: 'Failed executions' }).textContent).toContain('2');
  });

  it('says what to do when sending is paused', async () => {
    const paused = deliverability('paused', { paused_at: '2026-11-26T08:00:00Z', paused_reason: 'bounce rate 12.0 %' });
    fakeApi(answers(stats([{ period: '2026-11-26', counts: counts({ sent: 1 }) }], {}), paused));

    render(<OverviewPage api={createApi()} />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Sending has been paused since 2026-11-26T08:00:00Z: bounce rate 12.0 %');
    expect(alert.textContent).toContain('What to do');
  });

  it('says why deliverability is not shown for a client whose settings were never saved (404), and shows the rest', async () => {
    fakeApi({
      ...answers(stats([{ period: '2026-11-26', counts: counts({ sent: 1 }) }], {}), {}),
      'GET /api/v1/client/settings': failure(404, 'No settings yet: PATCH /client/settings creates them', [
        { condition: 'not_found', error: 'No settings yet', key: 'settings' },
      ]),
    });

    render(<OverviewPage api={createApi()} />);

    const health = await screen.findByRole('region', { name: 'Deliverability' });
    expect(health.textContent).toContain('Not shown yet');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('region', { name: 'Rates, last 30 days' }).textContent).toContain('Sent1');
  });

  it('teaches the first event with its own base URL, and no key, to a client with nothing yet', async () => {
    fakeApi(answers(stats([{ period: '2026-11-26', counts: counts() }], {}), deliverability('healthy')));

    render(<OverviewPage api={createApi()} />);

    const empty = await screen.findByRole('region', { name: 'No e-mail yet: report your first event' });
    const curl = within(empty).getByLabelText('The first event, as a curl command').textContent!;
    expect(curl).toContain(`"${window.location.origin}/api/v1/client/events?sync=true"`);
    expect(curl).toContain('Bearer $KEY');
    expect(curl).toContain('{"type":"signup","email":"ada@example.com"}');
    expect(charts).toHaveLength(0);
  });

  it('says who the e-mails come from and to whom while in the sandbox, with the way out; not once a domain is verified', async () => {
    // Prepare
    const body = stats([{ period: '2026-11-26', counts: counts({ sent: 1 }) }], {});
    fakeApi(answers(body, { ...deliverability('healthy'), sending: sendingOf({ sandbox: true }) }));

    // Act
    const { unmount } = render(<OverviewPage api={createApi()} />);

    // Assess
    const banner = await screen.findByRole('region', { name: 'Sandbox' });
    expect(banner.textContent).toBe(
      'SandboxYou send from onboarding@sandbox.email-lifecycle.example as Demo Co, only to your dashboard users and ' +
        "SES's mailbox simulator (…@simulator.amazonses.com): e-mails to anyone else are skipped. Add and verify your " +
        'domain to send to your contacts.',
    );
    expect(within(banner).getByRole('link', { name: 'Add and verify your domain' }).getAttribute('href')).toBe(
      '/app/domains',
    );
    unmount();

    // Verified: no banner
    fakeApi(
      answers(body, {
        ...deliverability('healthy'),
        sending: sendingOf({
          sandbox: false,
          from_address: 'no-reply@demo.example',
          verified_domains: ['demo.example'],
        }),
      }),
    );
    render(<OverviewPage api={createApi()} />);
    await screen.findByRole('heading', { name: 'Rates, last 30 days' });
    expect(screen.queryByRole('region', { name: 'Sandbox' })).toBeNull();
  });

  it("shows a paused SES tenant, with SES's reason, next to the deliverability status", async () => {
    const tenant = {
      name: 'els-client-1',
      status: 'paused',
      paused_reason: 'Sending paused by SES: complaint rate review',
      paused_at: '2026-11-27T10:00:00.000Z',
    };
    fakeApi(
      answers(stats([{ period: '2026-11-26', counts: counts({ sent: 1 }) }], {}), {
        ...deliverability('healthy'),
        sending: sendingOf({ sandbox: false, tenant }),
      }),
    );

    render(<OverviewPage api={createApi()} />);

    const card = await screen.findByRole('region', { name: 'Deliverability, last 30 days' });
    const status = within(card).getByText('Healthy');
    expect(status.nextElementSibling?.className).toBe('status status-paused');
    expect(status.nextElementSibling?.textContent).toBe(
      'SES paused sending for this account since 2026-11-27 10:00:00 UTC: Sending paused by SES: complaint rate ' +
        'review. E-mails wait; nothing is lost.',
    );
  });

  it('asks for the chosen period (7 days) and draws it', async () => {
    const calls: FakeCall[] = fakeApi(
      answers(stats([{ period: '2026-11-26', counts: counts({ sent: 1 }) }], {}), deliverability('healthy')),
    );
    render(<OverviewPage api={createApi()} />);
    await screen.findByRole('heading', { name: 'Rates, last 30 days' });

    fireEvent.click(screen.getByLabelText('7 days'));

    await screen.findByRole('heading', { name: 'Rates, last 7 days' });
    const asked = calls
      .filter((call) => call.path === '/api/v1/client/stats')
      .map((call) => Object.fromEntries(call.query));
    expect(asked).toEqual([rangeOf(30), rangeOf(7)]);
    await waitFor(() => expect(charts).toHaveLength(2));
  });
});

describe('rangeOf', () => {
  it('is the last n UTC days, today included', () => {
    expect(rangeOf(7, new Date('2026-03-01T23:30:00Z'))).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(rangeOf(90, new Date('2026-11-26T00:00:00Z'))).toEqual({ from: '2026-08-29', to: '2026-11-26' });
  });
});
