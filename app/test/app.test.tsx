import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { App } from '../src/app.js';
import { location } from '../src/router.js';
import { session } from '../src/session.js';
import { failure, fakeApi, ME, ok } from './fake-api.js';
import { accountStatsOf, QUIET_DELIVERABILITY } from './stats-fixtures.js';

vi.mock('uplot', () => import('./uplot-fake.js'));

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
      'GET /api/v1/client/stats': ok(accountStatsOf([], {})),
      'GET /api/v1/client/settings': ok({ deliverability: QUIET_DELIVERABILITY }),
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
