import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Api, createApi } from '../src/api/client.js';
import { WebhookPage } from '../src/pages/webhooks/webhook-page.js';
import { WebhooksPage } from '../src/pages/webhooks/webhooks-page.js';
import { location, route } from '../src/router.js';
import type { SignedIn } from '../src/session.js';
import { as } from './contacts-fixtures.js';
import { failure, fakeApi, type FakeCall, ok } from './fake-api.js';

const AT = '2026-11-26T09:00:00.000Z';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const webhookOf = (overrides: Record<string, unknown> = {}) => ({
  id: 5,
  url: 'https://hooks.example.com/lifecycle',
  description: 'CRM',
  event_types: null,
  enabled: true,
  humans_only: false,
  failing_since: null,
  disabled_reason: null,
  masked_secret: 'whsec_…aSw',
  previous_secret_expires_at: null,
  created_at: AT,
  updated_at: AT,
  ...overrides,
});
const attemptOf = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  webhook_id: 5,
  message_id: `msg_${id}`,
  event_type: 'email.delivered',
  attempt: 1,
  replay: false,
  attempted_at: AT,
  succeeded: false,
  status_code: 500,
  duration_ms: 12,
  response_body: 'oops',
  error: null,
  next_attempt_at: '2026-11-26T09:00:05.000Z',
  ...overrides,
});
const created = (data: unknown) => ({
  status: 201,
  body: { data, errors: [], message: 'Created', meta: { request_id: 'r' }, success: true },
});
const changes = (calls: FakeCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.path, call.body]);

function Routed({ api, signedIn }: { api: Api; signedIn: SignedIn }) {
  return <WebhookPage api={api} params={route.value.params} signedIn={signedIn} />;
}
function at(search: string) {
  window.history.replaceState(null, '', `/app/webhook${search}`);
  location.value = { pathname: '/app/webhook', search };
}

beforeEach(() => at('?id=5'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the webhooks page', () => {
  it('teaches what a webhook is when there is none, adds one with chosen types, and shows its secret once', async () => {
    // Prepare
    let list: unknown[] = [];
    const calls = fakeApi({
      'GET /api/v1/client/webhooks': () => ok({ webhooks: list }),
      'POST /api/v1/client/webhooks': () => {
        list = [webhookOf({ event_types: ['email.bounced'], humans_only: true })];
        return created({ ...webhookOf({ event_types: ['email.bounced'], humans_only: true }), secret: SECRET });
      },
    });
    render(<WebhooksPage api={createApi()} params={{}} signedIn={as('owner')} />);
    expect((await screen.findByRole('heading', { name: 'No webhook yet' })).parentElement!.textContent).toContain(
      'First step',
    );

    // Act
    fireEvent.input(screen.getByLabelText('Endpoint URL'), {
      target: { value: ' https://hooks.example.com/lifecycle ' },
    });
    fireEvent.click(screen.getByLabelText('Only these:'));
    fireEvent.click(screen.getByLabelText(/email\.bounced/));
    fireEvent.click(screen.getByLabelText('Humans only'));
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));

    // Assess
    expect(((await screen.findByLabelText('The value')) as HTMLInputElement).value).toBe(SECRET);
    expect(screen.getByText(/shown this once and never again/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(changes(calls)).toEqual([
      [
        'POST',
        '/api/v1/client/webhooks',
        {
          url: 'https://hooks.example.com/lifecycle',
          description: '',
          event_types: ['email.bounced'],
          humans_only: true,
        },
      ],
    ]);
    const link = await screen.findByRole('link', { name: 'https://hooks.example.com/lifecycle' });
    expect(link.getAttribute('href')).toBe('/app/webhook/5');
    fireEvent.click(screen.getByRole('button', { name: 'I stored it, hide it' }));
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it("shows the URL's 422 at its field", async () => {
    fakeApi({
      'GET /api/v1/client/webhooks': ok({ webhooks: [] }),
      'POST /api/v1/client/webhooks': failure(422, 'Validation failed', [
        { condition: 'unsafe', error: 'Must not name a private address', key: 'url' },
      ]),
    });
    render(<WebhooksPage api={createApi()} params={{}} signedIn={as('owner')} />);
    fireEvent.input(await screen.findByLabelText('Endpoint URL'), { target: { value: 'https://10.0.0.1/' } });

    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));

    const url = screen.getByLabelText('Endpoint URL');
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(url.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent).toBe(
      'Must not name a private address',
    );
  });

  it('shows a member the endpoints without a form to add one', async () => {
    fakeApi({ 'GET /api/v1/client/webhooks': ok({ webhooks: [webhookOf()] }) });

    render(<WebhooksPage api={createApi()} params={{}} signedIn={as('member')} />);

    await screen.findByRole('link', { name: 'https://hooks.example.com/lifecycle' });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByLabelText('Endpoint URL')).toBeNull();
  });
});

describe('the webhook page', () => {
  it('sends a test, disables the endpoint, and rotates its secret (shown once)', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/webhooks/5': ok(webhookOf()),
      'GET /api/v1/client/webhooks/5/attempts': ok({ attempts: [], has_more: false, next_starting_after: null }),
      'POST /api/v1/client/webhooks/5/test': ok({
        delivered: true,
        status_code: 204,
        duration_ms: 31,
        response_body: null,
        error: null,
        message_id: 'msg_test',
      }),
      'PATCH /api/v1/client/webhooks/5': ok(webhookOf({ enabled: false })),
      'POST /api/v1/client/webhooks/5/rotate-secret': ok({
        ...webhookOf({ enabled: false, previous_secret_expires_at: '2026-11-27T09:00:00.000Z' }),
        secret: SECRET,
      }),
    });
    render(<Routed api={createApi()} signedIn={as('owner')} />);

    // Act + Assess: the test
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test event' }));
    expect((await screen.findByText('Test delivered')).parentElement!.textContent).toBe(
      'Test delivered: the endpoint answered 204 in 31 ms.',
    );

    // Disable
    fireEvent.click(screen.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enable' })).toBeTruthy());

    // Rotate, after asking
    fireEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, rotate secret' }));
    expect(((await screen.findByLabelText('The value')) as HTMLInputElement).value).toBe(SECRET);
    expect(screen.getByText(/the previous one also signs until/)).toBeTruthy();
    expect(changes(calls)).toEqual([
      ['POST', '/api/v1/client/webhooks/5/test', undefined],
      ['PATCH', '/api/v1/client/webhooks/5', { enabled: false }],
      ['POST', '/api/v1/client/webhooks/5/rotate-secret', undefined],
    ]);
  });

  it('lists the attempts page by page and replays one', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/webhooks/5': ok(webhookOf()),
      'GET /api/v1/client/webhooks/5/attempts': (call) =>
        call.query.get('starting_after') === 'a1'
          ? ok({
              attempts: [
                attemptOf('a0', { succeeded: true, status_code: 200, response_body: null, next_attempt_at: null }),
              ],
              has_more: false,
              next_starting_after: null,
            })
          : ok({ attempts: [attemptOf('a1')], has_more: true, next_starting_after: 'a1' }),
      'POST /api/v1/client/webhooks/5/attempts/a1/replay': {
        status: 202,
        body: {
          data: { message_id: 'msg_a1', webhook_id: 5, queued: true },
          errors: [],
          message: 'Queued',
          meta: { request_id: 'r' },
          success: true,
        },
      },
    });
    render(<Routed api={createApi()} signedIn={as('owner')} />);
    const table = await screen.findByRole('table');
    expect(within(table).getByText(/Failed \(500\)/)).toBeTruthy();

    fireEvent.click(within(table).getByRole('button', { name: `Replay email.delivered of ${AT}` }));
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('status')
          .some((s) => s.textContent === 'Event msg_a1 (email.delivered) is queued again; its attempts show here.'),
      ).toBe(true),
    );

    fireEvent.click(screen.getByRole('link', { name: 'Older attempts' }));
    expect(await screen.findByText(/Delivered \(200\)/)).toBeTruthy();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/app/webhook/5?after=a1');
    expect(
      calls
        .filter((call) => call.path.endsWith('/attempts'))
        .map((call) => Object.fromEntries(call.query))
        .at(-1),
    ).toEqual({ limit: '20', starting_after: 'a1' });
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/webhooks/5/attempts/a1/replay', undefined]]);
  });

  it('edits the endpoint: every type becomes a chosen list, the description changes, and the answer is shown', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/webhooks/5': ok(webhookOf()),
      'GET /api/v1/client/webhooks/5/attempts': ok({ attempts: [], has_more: false, next_starting_after: null }),
      'PATCH /api/v1/client/webhooks/5': (call) =>
        (call.body as { url: string }).url.startsWith('ftp:')
          ? failure(422, 'Validation failed', [{ condition: 'format', error: 'Must be an http(s) URL', key: 'url' }])
          : ok(webhookOf({ description: 'CRM sync', event_types: ['contact.unsubscribed'] })),
    });
    render(<Routed api={createApi()} signedIn={as('owner')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the endpoint' }));
    const url = screen.getByLabelText('Endpoint URL') as HTMLInputElement;
    expect(url.value).toBe('https://hooks.example.com/lifecycle');

    fireEvent.input(url, { target: { value: 'ftp://hooks.example.com/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save endpoint' }));
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(url.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent).toBe(
      'Must be an http(s) URL',
    );

    fireEvent.input(url, { target: { value: 'https://hooks.example.com/lifecycle' } });
    fireEvent.input(screen.getByLabelText('Description'), { target: { value: 'CRM sync' } });
    fireEvent.click(screen.getByLabelText('Only these:'));
    fireEvent.click(screen.getByLabelText(/contact\.unsubscribed/));
    fireEvent.click(screen.getByRole('button', { name: 'Save endpoint' }));

    await waitFor(() => expect(screen.getByText('Endpoint saved.')).toBeTruthy());
    expect(screen.getByText('contact.unsubscribed')).toBeTruthy();
    expect(screen.queryByLabelText('Endpoint URL')).toBeNull();
    expect(changes(calls).at(-1)).toEqual([
      'PATCH',
      '/api/v1/client/webhooks/5',
      {
        url: 'https://hooks.example.com/lifecycle',
        description: 'CRM sync',
        event_types: ['contact.unsubscribed'],
        humans_only: false,
      },
    ]);
  });

  it('deletes the endpoint after asking, and goes back to the list', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/webhooks/5': ok(webhookOf()),
      'GET /api/v1/client/webhooks/5/attempts': ok({ attempts: [], has_more: false, next_starting_after: null }),
      'DELETE /api/v1/client/webhooks/5': ok(webhookOf()),
    });
    render(<Routed api={createApi()} signedIn={as('owner')} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Delete this endpoint' }));
    expect(changes(calls)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));

    await waitFor(() => expect(window.location.pathname).toBe('/app/webhooks'));
    expect(changes(calls)).toEqual([['DELETE', '/api/v1/client/webhooks/5', undefined]]);
  });

  it('shows a viewer the endpoint and its attempts without test, replay, rotate, edit or delete', async () => {
    fakeApi({
      'GET /api/v1/client/webhooks/5': ok(webhookOf()),
      'GET /api/v1/client/webhooks/5/attempts': ok({
        attempts: [attemptOf('a1')],
        has_more: false,
        next_starting_after: null,
      }),
    });

    render(<Routed api={createApi()} signedIn={as('viewer')} />);

    await screen.findByRole('table');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByText('Edit the endpoint')).toBeNull();
  });
});
