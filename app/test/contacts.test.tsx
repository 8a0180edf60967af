import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Api, createApi } from '../src/api/client.js';
import { ContactsPage } from '../src/pages/contacts/contacts-page.js';
import { location, route } from '../src/router.js';
import { as, contactOf } from './contacts-fixtures.js';
import { failure, fakeApi, ok } from './fake-api.js';

/** The page as the app draws it: its query from the address bar, drawn again when a search or a page link moves it. */
function Routed({ api }: { api: Api }) {
  return <ContactsPage api={api} params={route.value.params} signedIn={as('owner')} />;
}

function at(search: string) {
  window.history.replaceState(null, '', `/app/contacts${search}`);
  location.value = { pathname: '/app/contacts', search };
}

beforeEach(() => at(''));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the contacts page', () => {
  it('searches by e-mail prefix, subscription and source, keeps the search in the address, and links each row to its contact', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/contacts': (call) =>
        call.query.get('email_prefix') === 'ada'
          ? ok({ contacts: [contactOf()], next_cursor: null })
          : ok({
              contacts: [
                contactOf(),
                contactOf({ id: 43, email: 'bob@example.com', first_name: null, last_name: null, tags: [] }),
              ],
              next_cursor: null,
            }),
    });
    render(<Routed api={createApi()} />);
    await screen.findByRole('link', { name: 'bob@example.com' });

    // Act
    fireEvent.input(screen.getByLabelText('E-mail starts with'), { target: { value: ' ada ' } });
    fireEvent.change(screen.getByLabelText('Subscription'), { target: { value: 'true' } });
    fireEvent.change(screen.getByLabelText('Source'), { target: { value: 'api' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    // Assess
    await waitFor(() => expect(calls).toHaveLength(2));
    const link = await screen.findByRole('link', { name: 'ada@example.com' });
    expect(screen.queryByRole('link', { name: 'bob@example.com' })).toBeNull();
    expect(window.location.search).toBe('?email_prefix=ada&is_subscribed=true&source=api');
    expect(Object.fromEntries(calls.at(-1)!.query)).toEqual({
      limit: '25',
      email_prefix: 'ada',
      is_subscribed: 'true',
      source: 'api',
    });
    const row = link.closest('tr')!;
    expect(row.textContent).toBe('ada@example.comAda LovelaceSubscribedapi72beta, vip2026-11-26 09:00:00 UTC');
    expect(link.getAttribute('href')).toBe('/app/contact/42');
  });

  it('follows next_cursor page by page, the search kept, and goes back to the first page', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/contacts': (call) =>
        call.query.get('cursor') === 'c2'
          ? ok({ contacts: [contactOf({ id: 44, email: 'cy@example.com' })], next_cursor: null })
          : ok({ contacts: [contactOf()], next_cursor: 'c2' }),
    });
    at('?is_subscribed=false');
    render(<Routed api={createApi()} />);

    fireEvent.click(await screen.findByRole('link', { name: 'Next page' }));

    expect(await screen.findByRole('link', { name: 'cy@example.com' })).toBeTruthy();
    expect(Object.fromEntries(calls.at(-1)!.query)).toEqual({ limit: '25', is_subscribed: 'false', cursor: 'c2' });
    const pages = screen.getByRole('navigation', { name: 'Pages of contacts' });
    expect(within(pages).queryByRole('link', { name: 'Next page' })).toBeNull();
    expect(within(pages).getByRole('link', { name: 'First page' }).getAttribute('href')).toBe(
      '/app/contacts?is_subscribed=false',
    );
  });

  it("shows the API's error items at their field (aria-invalid, aria-describedby), the others in the alert", async () => {
    fakeApi({
      'GET /api/v1/client/contacts': failure(422, 'Validation failed', [
        { condition: 'format', error: 'Must be at most 254 characters', key: 'email_prefix' },
        { condition: 'format', error: 'Not a cursor of this search', key: 'cursor' },
      ]),
    });
    at('?email_prefix=x&cursor=bad');

    render(<Routed api={createApi()} />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Validation failedcursor Not a cursor of this search');
    const field = screen.getByLabelText('E-mail starts with');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Must be at most 254 characters',
    );
  });

  it('teaches where contacts come from when there is none, and says so when a search finds none', async () => {
    fakeApi({ 'GET /api/v1/client/contacts': ok({ contacts: [], next_cursor: null }) });
    render(<Routed api={createApi()} />);
    expect((await screen.findByText(/No contact yet/)).textContent).toContain('auto_create_contact');

    cleanup();
    at('?email_prefix=zed');
    render(<Routed api={createApi()} />);
    expect(await screen.findByText('No contact matches this search.')).toBeTruthy();
  });
});
