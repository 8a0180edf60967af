import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { addressOf, addressParts, draftOf, patchOf, SettingsPage } from '../src/pages/settings/settings-page.js';
import { as } from './contacts-fixtures.js';
import { failure, fakeApi, ok } from './fake-api.js';
import { QUIET_DELIVERABILITY } from './stats-fixtures.js';

const AT = '2026-11-26T09:00:00.000Z';
/** GET /client/settings's data, as the API answers it (fields unset but the brand name and quiet hours). */
const settingsOf = (overrides: Record<string, unknown> = {}) => ({
  id: 1,
  client_id: 1,
  morning_send_hour: null,
  morning_send_minute: null,
  afternoon_send_hour: null,
  afternoon_send_minute: null,
  quiet_hour_start: 22,
  quiet_hour_end: 7,
  send_window_enabled: null,
  send_window_start_hour: null,
  send_window_end_hour: null,
  send_window_allowed_days: null,
  timezone: 'Europe/Paris',
  max_emails_per_day: null,
  queue_timeout_days: null,
  custom_email_quota_per_day: null,
  custom_email_quota_per_month: null,
  custom_max_workflows: null,
  enable_critical_bypass: null,
  ai_advisor_enabled: null,
  auto_approve_enabled: null,
  enabled_workflows: [1, 2],
  preferences: null,
  brand_name: 'Demo',
  brand_logo_url: null,
  brand_primary_color: null,
  brand_secondary_color: null,
  company_name: null,
  company_address: null,
  email_from_name: null,
  email_from_address: null,
  email_reply_to: null,
  email_signature: null,
  tone_of_voice: 0,
  created_at: AT,
  updated_at: AT,
  deleted_at: null,
  client: {
    subscription_tier: 'growth',
    monthly_emails_sent: 12,
    monthly_email_quota: 50000,
    quota_reset_at: '2026-12-01T00:00:00.000Z',
  },
  deliverability: QUIET_DELIVERABILITY,
  ...overrides,
});

const sendingOf = (overrides: Record<string, unknown> = {}) => ({
  from_address: 'onboarding@sandbox.email-lifecycle.example',
  from_name: 'Demo Co',
  from_status: 'unset',
  sandbox: true,
  verified_domains: [],
  problems: [],
  tenant: { name: null, status: 'none', paused_reason: null, paused_at: null },
  ...overrides,
});

const patches = (calls: { method: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'PATCH').map((call) => call.body);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the settings page', () => {
  it('sends only what changed, shows a 422 error item at its field (aria-invalid, aria-describedby), then saves a valid value', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/settings': ok(settingsOf()),
      'PATCH /api/v1/client/settings': (call) =>
        (call.body as { quiet_hour_start?: number }).quiet_hour_start === 25
          ? failure(422, 'Validation failed', [
              { condition: 'max', error: 'Must be at most 23 (hour of the day)', key: 'quiet_hour_start' },
            ])
          : ok(settingsOf({ quiet_hour_start: 23, brand_primary_color: '#1A73E8' })),
    });
    render(<SettingsPage api={createApi()} params={{}} signedIn={as('owner')} />);
    const quiet = (await screen.findByLabelText('Quiet hours start (hour)')) as HTMLInputElement;
    expect(quiet.value).toBe('22');
    expect((screen.getByLabelText('Enabled workflows (ids)') as HTMLInputElement).value).toBe('1,2');

    // Act: an hour out of range
    fireEvent.input(quiet, { target: { value: '25' } });
    fireEvent.input(screen.getByLabelText('Primary colour'), { target: { value: '#1A73E8' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    // Assess: the item at its field, the envelope's message in the alert
    await waitFor(() => expect(quiet.getAttribute('aria-invalid')).toBe('true'));
    const described = quiet.getAttribute('aria-describedby')!.split(' ');
    expect(document.getElementById(described[0]!)!.textContent).toBe('Must be at most 23 (hour of the day)');
    expect(screen.getByRole('alert').textContent).toBe('Validation failed');
    expect(patches(calls)).toEqual([{ quiet_hour_start: 25, brand_primary_color: '#1A73E8' }]);

    // Act: a valid hour
    fireEvent.input(quiet, { target: { value: '23' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    // Assess
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Settings saved.'));
    expect(quiet.getAttribute('aria-invalid')).toBeNull();
    expect(patches(calls).at(-1)).toEqual({ quiet_hour_start: 23, brand_primary_color: '#1A73E8' });
  });

  it('starts from the defaults when the settings were never saved (404), and the first save creates them', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/settings': failure(404, 'Settings not found', [
        { condition: 'not_found', error: 'No settings yet', key: 'settings' },
      ]),
      'PATCH /api/v1/client/settings': ok(settingsOf({ brand_name: 'Acme' })),
    });
    render(<SettingsPage api={createApi()} params={{}} signedIn={as('owner')} />);

    const brand = (await screen.findByLabelText('Brand name')) as HTMLInputElement;
    expect(brand.value).toBe('');
    expect(screen.getByText(/Nothing saved yet/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByLabelText('Send window') as HTMLSelectElement).value).toBe('');
    fireEvent.input(brand, { target: { value: 'Acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Settings saved.'));
    expect(patches(calls)).toEqual([{ brand_name: 'Acme' }]);
  });

  it('shows a member the settings without a control to change them', async () => {
    const calls = fakeApi({ 'GET /api/v1/client/settings': ok(settingsOf()) });

    render(<SettingsPage api={createApi()} params={{}} signedIn={as('member')} />);

    expect(await screen.findByRole('heading', { name: 'Send window and quiet hours' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getByText('Europe/Paris')).toBeTruthy();
    expect(screen.getByText(/read the settings|reads the settings/)).toBeTruthy();
    expect(calls.every((call) => call.method === 'GET')).toBe(true);
  });

  it('takes the From as a local part at one of the verified domains, and sends it as one address', async () => {
    // Prepare
    const verified = sendingOf({
      sandbox: false,
      from_address: 'no-reply@demo.example',
      verified_domains: ['demo.example', 'mail.demo.example'],
    });
    const calls = fakeApi({
      'GET /api/v1/client/settings': ok(settingsOf({ sending: verified })),
      'PATCH /api/v1/client/settings': ok(
        settingsOf({
          email_from_address: 'hello@mail.demo.example',
          sending: { ...verified, from_address: 'hello@mail.demo.example', from_status: 'verified' },
        }),
      ),
    });
    render(<SettingsPage api={createApi()} params={{}} signedIn={as('owner')} />);
    const local = (await screen.findByLabelText('From address (before the @)')) as HTMLInputElement;
    const domain = screen.getByLabelText('At the domain') as HTMLSelectElement;
    expect([...domain.options].map((option) => [option.value, option.textContent])).toEqual([
      ['', 'Choose a domain'],
      ['demo.example', 'demo.example'],
      ['mail.demo.example', 'mail.demo.example'],
    ]);
    expect(document.getElementById('st-email_from_address-hint')?.textContent).toContain(
      'Now: Demo Co <no-reply@demo.example>.',
    );

    // Act
    fireEvent.input(local, { target: { value: 'hello' } });
    fireEvent.change(domain, { target: { value: 'mail.demo.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    // Assess
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Settings saved.'));
    expect(patches(calls)).toEqual([{ email_from_address: 'hello@mail.demo.example' }]);
    expect(local.value).toBe('hello');
    expect(domain.value).toBe('mail.demo.example');
    expect(document.getElementById('st-email_from_address-hint')?.textContent).toContain(
      'Now: Demo Co <hello@mail.demo.example>.',
    );
  });

  it('sends to Domains while none is verified, and shows a refused From at its field', async () => {
    // Prepare
    const error =
      'hello@other.example is not at one of your verified domains (none yet); add other.example under Domains';
    fakeApi({
      'GET /api/v1/client/settings': ok(settingsOf({ sending: sendingOf() })),
      'PATCH /api/v1/client/settings': failure(422, 'Refused for safety', [
        { condition: 'unsafe', error, key: 'email_from_address' },
      ]),
    });
    render(<SettingsPage api={createApi()} params={{}} signedIn={as('owner')} />);
    const local = (await screen.findByLabelText('From address (before the @)')) as HTMLInputElement;
    const hint = document.getElementById('st-email_from_domain-hint')!;
    expect(hint.textContent).toBe('No verified domain yet: add your domain under Domains first.');
    expect(within(hint).getByRole('link').getAttribute('href')).toBe('/app/domains');
    expect(document.getElementById('st-email_from_address-hint')?.textContent).toContain(
      'Now: Demo Co <onboarding@sandbox.email-lifecycle.example>, the sandbox.',
    );

    // Act: typed whole in the local part (the API judges it)
    fireEvent.input(local, { target: { value: 'hello@other.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    // Assess
    await waitFor(() => expect(local.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('st-email_from_address-error')?.textContent).toBe(error);
    expect(screen.getByRole('alert').textContent).toBe('Refused for safety');
  });

  it('says a stored From outside the verified domains is not used, and offers its domain marked', async () => {
    const problem = 'hello@b.example is not at one of your verified domains (a.example); add b.example under Domains';
    fakeApi({
      'GET /api/v1/client/settings': ok(
        settingsOf({
          email_from_address: 'hello@b.example',
          sending: sendingOf({
            sandbox: false,
            from_address: 'no-reply@a.example',
            from_status: 'not_verified',
            verified_domains: ['a.example'],
            problems: [{ key: 'email_from_address', error: problem }],
          }),
        }),
      ),
    });
    render(<SettingsPage api={createApi()} params={{}} signedIn={as('owner')} />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      `A stored setting is not used: your e-mails go out From no-reply@a.example until it is fixed.email_from_address ${problem}`,
    );
    const domain = screen.getByLabelText('At the domain') as HTMLSelectElement;
    expect(domain.value).toBe('b.example');
    expect(domain.selectedOptions[0]?.textContent).toBe('b.example (not verified)');
    expect((screen.getByLabelText('From address (before the @)') as HTMLInputElement).value).toBe('hello');
  });

  it.each([
    ['hello@a.example', 'hello', 'a.example'],
    ['"a@b"@a.example', '"a@b"', 'a.example'],
    ['', '', ''],
    ['@a.example', '', 'a.example'],
  ])('splits %s into its local part and domain, and joins them back', (address, local, domain) => {
    expect(addressParts(address)).toEqual({ local, domain });
    expect(addressOf(local, domain)).toBe(address);
  });

  it('turns the form into a PATCH body: unset as null, numbers, booleans and lists as the API takes them', () => {
    const saved = draftOf(settingsOf() as never);
    const draft = {
      ...saved,
      timezone: '',
      max_emails_per_day: '5',
      send_window_enabled: 'true',
      enabled_workflows: '1, 3',
      morning_send_hour: 'nine',
    };

    expect(patchOf(draft, saved)).toEqual({
      timezone: null,
      max_emails_per_day: 5,
      send_window_enabled: true,
      enabled_workflows: [1, 3],
      morning_send_hour: 'nine',
    });
  });
});
