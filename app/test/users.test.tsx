import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { UsersPage } from '../src/pages/users/users-page.js';
import { as } from './contacts-fixtures.js';
import { failure, fakeApi, ME, ok } from './fake-api.js';

const AT = '2026-11-26T09:00:00.000Z';
const BOB = {
  id: 2,
  email: 'bob@example.com',
  name: 'Bob',
  role: 3,
  role_name: 'member',
  invited_by: 1,
  last_sign_in_at: null,
  created_at: AT,
  updated_at: AT,
};
const OWNER = { ...ME.user, updated_at: AT };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the users page', () => {
  it('lets the owner invite with a role, and shows a 409 at the e-mail field', async () => {
    // Prepare
    let invited = false;
    const calls = fakeApi({
      'GET /api/v1/client/users': () =>
        ok({
          users: invited
            ? [OWNER, BOB, { ...BOB, id: 3, name: 'Cy', email: 'cy@example.com', role: 4, role_name: 'viewer' }]
            : [OWNER, BOB],
        }),
      'POST /api/v1/client/users': (call) => {
        if ((call.body as { email: string }).email === 'bob@example.com')
          return failure(409, 'Conflict', [
            { condition: 'unique', error: 'This address already has an account in this client', key: 'email' },
          ]);
        invited = true;
        return {
          status: 202,
          body: {
            data: { email: 'cy@example.com', name: 'Cy', role: 4, role_name: 'viewer', invited_by: 1, valid_until: AT },
            errors: [],
            message: 'Invitation on its way',
            meta: { request_id: 'r' },
            success: true,
          },
        };
      },
    });
    render(<UsersPage api={createApi()} params={{}} signedIn={as('owner')} />);
    await screen.findByRole('heading', { name: 'Bob' });

    // Act: an address that has an account
    fireEvent.input(screen.getByLabelText('E-mail address'), { target: { value: 'bob@example.com' } });
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Bob again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));

    // Assess
    const email = screen.getByLabelText('E-mail address');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe(
      'This address already has an account in this client',
    );

    // Act: another, as a viewer
    fireEvent.input(email, { target: { value: 'cy@example.com' } });
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Cy' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));

    // Assess
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain(
        'The invitation to cy@example.com as viewer is on its way',
      ),
    );
    expect(calls.filter((call) => call.method === 'POST').at(-1)!.body).toEqual({
      email: 'cy@example.com',
      name: 'Cy',
      role: 4,
    });
    expect(await screen.findByRole('heading', { name: 'Cy' })).toBeTruthy();
  });

  it("lets the owner change a user's role and remove a user, never the owner", async () => {
    const calls = fakeApi({
      'GET /api/v1/client/users': ok({ users: [OWNER, BOB] }),
      'PATCH /api/v1/client/users/2': ok({ ...BOB, role: 2, role_name: 'admin' }),
      'DELETE /api/v1/client/users/2': ok(BOB),
    });
    render(<UsersPage api={createApi()} params={{}} signedIn={as('owner')} />);
    await screen.findByRole('heading', { name: 'Bob' });
    const owner = screen.getByRole('heading', { name: /Demo Owner/ }).closest('li')!;
    expect(within(owner).queryByRole('button')).toBeNull();

    fireEvent.change(screen.getByLabelText('Role of Bob'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change role' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Bob’s role changed; their sessions ended.'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove Bob' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, remove' }));

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Bob removed.'));
    expect(calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.path, call.body])).toEqual([
      ['PATCH', '/api/v1/client/users/2', { role: 2 }],
      ['DELETE', '/api/v1/client/users/2', undefined],
    ]);
  });

  it('tells the owner, before removing or demoting a user, how many API keys that disables', async () => {
    const ADA = { ...BOB, id: 5, name: 'Ada', email: 'ada@example.com', role: 2, role_name: 'admin' };
    const key = (id: number, overrides: Record<string, unknown>) => ({
      id,
      label: `k${id}`,
      enabled: true,
      masked_key: 'els_…xxxx',
      created_at: AT,
      created_by: 1,
      creator: null,
      personal_for: null,
      last_used_at: null,
      disabled_at: null,
      disabled_reason: null,
      ...overrides,
    });
    const calls = fakeApi({
      'GET /api/v1/client/users': ok({ users: [OWNER, ADA, BOB] }),
      'GET /api/v1/client/api-keys': ok({
        api_keys: [
          key(1, { created_by: 5 }),
          key(2, { created_by: 5, personal_for: 5 }),
          key(3, { created_by: 5, enabled: false }),
          key(4, { created_by: 1 }),
        ],
      }),
      'PATCH /api/v1/client/users/5': ok({ ...ADA, role: 3, role_name: 'member' }),
      'DELETE /api/v1/client/users/5': ok(ADA),
    });
    render(<UsersPage api={createApi()} params={{}} signedIn={as('owner')} />);
    const ada = (await screen.findByRole('heading', { name: 'Ada' })).closest('li')!;

    // Assess: the count is shown beside Ada, not beside Bob (who holds none)
    await waitFor(() =>
      expect(ada.textContent).toContain(
        '2 API keys created or held by Ada: removing them, or making them a member or viewer, disables them for good.',
      ),
    );
    expect(screen.getByRole('heading', { name: 'Bob' }).closest('li')!.textContent).not.toContain('API key');

    // Act: a change to member asks first, naming the count
    fireEvent.change(within(ada).getByLabelText('Role of Ada'), { target: { value: '3' } });
    fireEvent.click(within(ada).getByRole('button', { name: 'Change role' }));
    expect(
      within(ada).getByRole('group', {
        name: 'Make Ada a member? 2 API keys will be disabled, and their sessions end.',
      }),
    ).toBeTruthy();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
    fireEvent.click(within(ada).getByRole('button', { name: 'Yes, change role' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Ada’s role changed; their sessions ended and 2 API keys disabled.',
      ),
    );

    // Act: removal says it too
    fireEvent.click(within(ada).getByRole('button', { name: 'Remove Ada' }));
    expect(
      within(ada).getByRole('group', {
        name: 'Remove Ada? Their sessions end at once, and 2 API keys will be disabled.',
      }),
    ).toBeTruthy();
  });

  it('transfers ownership only after asking, then asks who is signed in again', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/users': ok({ users: [OWNER, BOB] }),
      'PATCH /api/v1/client/users/2': ok({ ...BOB, role: 1, role_name: 'owner' }),
      'GET /api/v1/auth/me': ok({ ...ME, user: { ...ME.user, role: 2, role_name: 'admin' } }),
    });
    render(<UsersPage api={createApi()} params={{}} signedIn={as('owner')} />);
    fireEvent.change(await screen.findByLabelText('Role of Bob'), { target: { value: '1' } });

    fireEvent.click(screen.getByRole('button', { name: 'Transfer ownership' }));
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, transfer ownership' }));

    await waitFor(() => expect(calls.some((call) => call.path === '/api/v1/auth/me')).toBe(true));
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({ role: 1 });
  });

  it('shows a non-owner the users without invite, role or remove controls', async () => {
    fakeApi({ 'GET /api/v1/client/users': ok({ users: [OWNER, BOB] }) });

    render(<UsersPage api={createApi()} params={{}} signedIn={as('member')} />);

    await screen.findByRole('heading', { name: 'Bob' });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Invite a user' })).toBeNull();
    expect(screen.getByText('Only the owner invites, changes roles and removes users.')).toBeTruthy();
  });
});
