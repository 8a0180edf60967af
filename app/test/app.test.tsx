import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { App } from '../src/app.js';
import { location } from '../src/router.js';
import { session } from '../src/session.js';
import { failure, fakeApi, ME, ok } from './fake-api.js';

vi.mock('uplot', () => ({
  default: class {
    static tzDate = (d: Date) => d;
    setSize() {}
    destroy() {}
  },
}));

const EMPTY_STATS = {
  from: '2026-10-28',
  to: '2026-11-26',
  granularity: 'day',
  workflow_id: null,
  time_zone: 'UTC',
  series: [],
  totals: {
    sent: 0,
    delivered: 0,
    opened: 0,
    clicked: 0,
    bot_opened: 0,
    bot_clicked: 0,
    bounced_hard: 0,
    bounced_soft: 0,
    complained: 0,
  },
  rates: {},
  skipped_reasons: {},
  failed_reasons: {},
  events: {},
};
const DELIVERABILITY = {
  window_days: 30,
  sends: 0,
  bounces: 0,
  complaints: 0,
  bounce_rate: 0,
  complaint_rate: 0,
  status: 'healthy',
  paused_at: null,
  paused_reason: null,
};

beforeEach(() => {
  session.value = undefined;
  window.history.replaceState(null, '', '/app');
  location.value = { pathname: '/app', search: '' };
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'els_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('the app', () => {
  it('shows the sign-in page without a session (401 from /auth/me), at /app/sign-in', async () => {
    fakeApi({ 'GET /api/v1/auth/me': failure(401, 'Authentication required') });

    render(<App api={createApi()} />);

    expect(await screen.findByRole('heading', { name: 'Sign in to the dashboard' })).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/app/sign-in'));
  });

  it("shows the signed-in user's name and role, and signs out with the CSRF token echoed", async () => {
    // Prepare
    document.cookie = 'els_csrf=token-123; path=/';
    const calls = fakeApi({
      'GET /api/v1/auth/me': ok(ME),
      'GET /api/v1/client/stats': ok(EMPTY_STATS),
      'GET /api/v1/client/settings': ok({ deliverability: DELIVERABILITY }),
      'GET /api/v1/client/executions': ok({ executions: [] }, { page: 1, per_page: 1, total: 0, total_pages: 0 }),
      'POST /api/v1/auth/sign-out': ok({}),
    });
    render(<App api={createApi()} />);
    expect(await screen.findByText('Demo Owner')).toBeTruthy();
    expect(screen.getByText('owner')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Demo Co' })).toBeTruthy();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));

    // Assess
    expect(await screen.findByRole('heading', { name: 'Sign in to the dashboard' })).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/app/sign-in'));
    const signOut = calls.find((call) => call.path === '/api/v1/auth/sign-out')!;
    expect(signOut.method).toBe('POST');
    expect(signOut.headers.get('x-csrf-token')).toBe('token-123');
    // Reads carry no CSRF header: only changes need it.
    expect(calls.find((call) => call.path === '/api/v1/auth/me')!.headers.get('x-csrf-token')).toBeNull();
  });

  it('says so when /auth/me fails for another reason than a missing session', async () => {
    fakeApi({ 'GET /api/v1/auth/me': failure(500, 'Internal error') });

    render(<App api={createApi()} />);

    expect((await screen.findByRole('alert')).textContent).toBe('GET /api/v1/auth/me answered 500');
  });
});
