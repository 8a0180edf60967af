import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { App } from '../src/app.js';
import { location } from '../src/router.js';
import { session } from '../src/session.js';
import { as, contactOf, TOPIC } from './contacts-fixtures.js';
import { fakeApi, ok } from './fake-api.js';

vi.mock('uplot', () => ({
  default: class {
    static tzDate = (d: Date) => d;
    setSize() {}
    destroy() {}
  },
}));

function at(path: string) {
  const url = new URL(path, window.location.origin);
  window.history.replaceState(null, '', path);
  location.value = { pathname: url.pathname, search: url.search };
}

beforeEach(() => {
  session.value = undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'els_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('the contacts group in the app', () => {
  it('is in the navigation, and a deep link to a contact opens its page, with the CSRF token on a change', async () => {
    // Prepare
    document.cookie = 'els_csrf=token-9; path=/';
    const calls = fakeApi({
      'GET /api/v1/auth/me': ok(as('member')),
      'GET /api/v1/client/contacts/42': ok(contactOf()),
      'GET /api/v1/client/topics': ok({ topics: [TOPIC] }),
      'GET /api/v1/client/contacts/42/activity': ok({ contact_id: 42, items: [], next_cursor: null }),
      'PATCH /api/v1/client/contacts/42/subscription': ok(
        contactOf({ topic_subscriptions: [{ topic_id: 3, is_subscribed: false }] }),
      ),
    });
    at('/app/contact?id=42');

    // Act
    render(<App api={createApi()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Unsubscribe from Product news' }));

    // Assess
    expect(await screen.findByRole('button', { name: 'Subscribe to Product news' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(expect.arrayContaining(['Contacts', 'Executions']));
    expect(document.title).toBe('Contact · Demo Co');
    expect(calls.find((call) => call.method === 'PATCH')!.headers.get('x-csrf-token')).toBe('token-9');
  });

  it('shows a viewer the executions page from the navigation, without retry', async () => {
    fakeApi({
      'GET /api/v1/auth/me': ok(as('viewer')),
      'GET /api/v1/client/workflows': ok({ workflows: [] }, { total: 0, enabled: 0, max_workflows: 10 }),
      'GET /api/v1/client/executions': ok(
        { executions: [] },
        { page: 1, per_page: 25, total: 0, total_pages: 0, total_is_exact: true },
      ),
    });
    at('/app/executions?status=4');

    render(<App api={createApi()} />);

    expect(await screen.findByText('No execution matches these filters.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Executions' }).getAttribute('aria-current')).toBe('page');
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
  });
});
