import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { Layout } from '../src/components/layout.js';
import { ApiKeysPage } from '../src/pages/api-keys/api-keys-page.js';
import { entryOf } from '../src/page.js';
import { can } from '../src/session.js';
import { as } from './contacts-fixtures.js';
import { failure, fakeApi, ok } from './fake-api.js';

const AT = '2026-11-26T09:00:00.000Z';
const FULL = `els_${'A1b2C3d4E5'.repeat(4)}`;
const keyOf = (id: number, label: string | null, overrides: Record<string, unknown> = {}) => ({
  id,
  label,
  enabled: true,
  masked_key: `els_…${String(id).padStart(4, 'x')}`,
  created_at: AT,
  created_by: 1,
  creator: { id: 1, email: 'owner@example.com', name: 'Olga' },
  personal_for: null,
  last_used_at: null,
  disabled_at: null,
  disabled_reason: null,
  ...overrides,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the API keys page', () => {
  it('shows a new key in full once, with a copy button and the warning, and never again once hidden', async () => {
    // Prepare
    const writes: string[] = [];
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: async (text: string) => void writes.push(text) },
    });
    let created = false;
    const calls = fakeApi({
      'GET /api/v1/client/api-keys': () =>
        ok({ api_keys: created ? [keyOf(1, 'CLI'), keyOf(2, 'Backend')] : [keyOf(1, 'CLI')] }),
      'POST /api/v1/client/api-keys': () => {
        created = true;
        return {
          status: 201,
          body: {
            data: { ...keyOf(2, 'Backend'), key: FULL },
            errors: [],
            message: 'Created',
            meta: { request_id: 'r' },
            success: true,
          },
        };
      },
    });
    render(<ApiKeysPage api={createApi()} params={{}} signedIn={as('owner')} />);
    await screen.findByText('CLI');

    // Act
    fireEvent.input(screen.getByLabelText('Label'), { target: { value: ' Backend ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));

    // Assess: the key in full, its warning, copied on request
    const shown = (await screen.findByLabelText('The value')) as HTMLInputElement;
    expect(shown.value).toBe(FULL);
    expect(document.getElementById(shown.getAttribute('aria-describedby')!)!.textContent).toContain(
      'shown this once and never again',
    );
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({ label: 'Backend' });
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writes).toEqual([FULL]));
    await waitFor(() => expect(screen.getByText('Backend')).toBeTruthy());
    expect(within(screen.getByRole('table')).queryByText(FULL)).toBeNull();

    // Act: hidden
    fireEvent.click(screen.getByRole('button', { name: 'I stored it, hide it' }));

    // Assess: nowhere in the page any more
    expect(document.body.innerHTML).not.toContain(FULL);
  });

  it('disables a key, and deletes one after asking', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/api-keys': ok({
        api_keys: [keyOf(1, 'CLI'), keyOf(2, 'Old', { enabled: false, disabled_at: AT })],
      }),
      'PATCH /api/v1/client/api-keys/1': ok(keyOf(1, 'CLI', { enabled: false })),
      'DELETE /api/v1/client/api-keys/2': ok(keyOf(2, 'Old')),
    });
    render(<ApiKeysPage api={createApi()} params={{}} signedIn={as('owner')} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Disable CLI' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Key “CLI” disabled: requests with it are refused.'),
    );
    expect(screen.getByRole('button', { name: 'Enable Old' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Old' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Key “Old” deleted.'));
    expect(calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.path, call.body])).toEqual([
      ['PATCH', '/api/v1/client/api-keys/1', { enabled: false }],
      ['DELETE', '/api/v1/client/api-keys/2', undefined],
    ]);
  });

  it('names the user who created each key, and a key that ended with its user says why and offers no Enable', async () => {
    fakeApi({
      'GET /api/v1/client/api-keys': ok({
        api_keys: [
          keyOf(1, null, { created_by: null, creator: null }),
          keyOf(2, 'CRM sync', { created_by: 5, creator: { id: 5, email: 'ada@example.com', name: 'Ada' } }),
          keyOf(3, 'Personal key of bo@example.com', {
            created_by: 6,
            creator: null,
            personal_for: 6,
            enabled: false,
            disabled_at: AT,
            disabled_reason: 'holder_removed',
          }),
          keyOf(4, 'Old', {
            created_by: 7,
            creator: { id: 7, email: 'cy@example.com', name: 'Cy' },
            enabled: false,
            disabled_at: AT,
            disabled_reason: 'holder_demoted',
          }),
        ],
      }),
    });

    render(<ApiKeysPage api={createApi()} params={{}} signedIn={as('owner')} />);

    const table = await screen.findByRole('table');
    const row = (name: string) => within(table).getByRole('rowheader', { name }).closest('tr')!;
    expect(within(table).getByRole('columnheader', { name: 'Created by' })).toBeTruthy();
    expect(row('(no label)').textContent).toContain('Set up with the account');
    expect(row('CRM sync').textContent).toContain('Ada (ada@example.com)');
    expect(row('Personal key of bo@example.com').textContent).toContain('A removed user (personal key)');
    expect(row('Personal key of bo@example.com').textContent).toContain('its user was removed');
    expect(row('Old').textContent).toContain('its user may no longer hold keys');
    expect(within(row('Old')).queryByRole('button', { name: 'Enable Old' })).toBeNull();
    expect(within(row('CRM sync')).getByRole('button', { name: 'Disable CRM sync' })).toBeTruthy();
  });

  it("shows the label's error item at its field", async () => {
    fakeApi({
      'GET /api/v1/client/api-keys': ok({ api_keys: [] }),
      'POST /api/v1/client/api-keys': failure(422, 'Validation failed', [
        { condition: 'required', error: 'Must not be blank', key: 'label' },
      ]),
    });
    render(<ApiKeysPage api={createApi()} params={{}} signedIn={as('owner')} />);
    await screen.findByText(/No key yet/);

    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));

    const field = screen.getByLabelText('Label');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent).toBe(
      'Must not be blank',
    );
  });

  it('is a page only for the roles that hold keys (owner, admin): a member or a viewer has none in the navigation', () => {
    expect(entryOf('api-keys')?.permission).toBe('keys');
    expect(can(as('owner'), 'keys')).toBe(true);
    expect(can(as('member'), 'keys')).toBe(false);
    expect(can(as('viewer'), 'keys')).toBe(false);
    const api = createApi();
    const { unmount } = render(
      <Layout api={api} signedIn={as('member')} page="overview">
        <p>x</p>
      </Layout>,
    );
    const nav = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(within(nav).queryByRole('link', { name: 'API keys' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Settings' })).toBeTruthy();
    unmount();
    render(
      <Layout api={api} signedIn={as('owner')} page="overview">
        <p>x</p>
      </Layout>,
    );
    expect(
      within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', { name: 'API keys' }),
    ).toBeTruthy();
  });
});
