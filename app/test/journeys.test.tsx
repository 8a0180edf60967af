import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { JourneysPage } from '../src/pages/journeys/journeys-page.js';
import { as } from './contacts-fixtures.js';
import { failure, type FakeCall, fakeApi } from './fake-api.js';
import { created, journeyOf, journeysList } from './journeys-fixtures.js';

const changes = (calls: FakeCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.path, call.body]);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('the journeys page', () => {
  it('lists the client’s journeys and the 8 system ones with status and live version, each linking to its page', async () => {
    // Prepare
    fakeApi({
      'GET /api/v1/client/journeys': journeysList([
        journeyOf(),
        journeyOf({ id: 1001, name: 'Trial nudges', status: 'live', live_version: 2 }),
      ]),
    });

    // Act
    render(<JourneysPage api={createApi()} params={{}} signedIn={as('owner')} />);

    // Assess
    const own = within(await screen.findByRole('region', { name: 'Your journeys table' }));
    expect(own.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'JourneyStatusLive version',
      'Cart reminder#1000Draft—',
      'Trial nudges#1001Live2',
    ]);
    expect(own.getByRole('link', { name: 'Cart reminder' }).getAttribute('href')).toBe('/app/journey/1000');
    expect(own.getByText('2 of at most 20 journeys (archived ones aside)')).toBeTruthy();
    const system = within(screen.getByRole('region', { name: 'System journeys table' }));
    expect(system.getAllByRole('row')).toHaveLength(9);
    expect(system.getAllByRole('row')[1]?.textContent).toBe('Welcome#1Live');
    expect(system.getByRole('link', { name: 'Welcome' }).getAttribute('href')).toBe('/app/journey/1');
  });

  it('creates a journey by its name and opens its page', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/journeys': journeysList([]),
      'POST /api/v1/client/journeys': created(journeyOf({ id: 1004, name: 'Cart reminder' })),
    });
    render(<JourneysPage api={createApi()} params={{}} signedIn={as('member')} />);
    expect(await screen.findByText(/No journey of your own yet/)).toBeTruthy();

    // Act
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: '  Cart reminder ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create journey' }));

    // Assess
    await waitFor(() => expect(window.location.pathname).toBe('/app/journey/1004'));
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/journeys', { name: 'Cart reminder' }]]);
  });

  it('copies the chosen system journey under a name, or “<name> (copy)” when none is typed', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/journeys': journeysList([]),
      'POST /api/v1/client/journeys': created(journeyOf({ id: 1005, copied_from: 3 })),
    });
    render(<JourneysPage api={createApi()} params={{}} signedIn={as('owner')} />);
    const select = await screen.findByLabelText('System journey');
    expect(within(select).getAllByRole('option')).toHaveLength(8);

    // Act
    fireEvent.change(select, { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Copy journey' }));

    // Assess
    await waitFor(() => expect(window.location.pathname).toBe('/app/journey/1005'));
    expect(changes(calls)).toEqual([
      ['POST', '/api/v1/client/journeys', { copy_of: 3, name: 'Payment failed (copy)' }],
    ]);
  });

  it('shows the API’s refusal at the name field and stays on the page', async () => {
    // Prepare
    fakeApi({
      'GET /api/v1/client/journeys': journeysList([]),
      'POST /api/v1/client/journeys': failure(422, 'The request is invalid', [
        { condition: 'max', error: 'At most 100 characters', key: 'name' },
      ]),
    });
    render(<JourneysPage api={createApi()} params={{}} signedIn={as('owner')} />);
    const field = await screen.findByLabelText('Name');

    // Act
    fireEvent.input(field, { target: { value: 'Cart' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create journey' }));

    // Assess
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('jy-new-name-error')?.textContent).toBe('At most 100 characters');
    expect(window.location.pathname).toBe('/');
  });

  it('offers no form at the plan’s limit, nor to a viewer', async () => {
    // Prepare
    fakeApi({ 'GET /api/v1/client/journeys': journeysList([journeyOf()], 1) });

    // Act
    const { unmount } = render(<JourneysPage api={createApi()} params={{}} signedIn={as('owner')} />);

    // Assess
    expect(await screen.findByText(/Your plan holds at most 1 journeys/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create journey' })).toBeNull();
    unmount();
    render(<JourneysPage api={createApi()} params={{}} signedIn={as('viewer')} />);
    expect(await screen.findByText(/Your role reads the journeys/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy journey' })).toBeNull();
  });
});
