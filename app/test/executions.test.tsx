import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Api, createApi } from '../src/api/client.js';
import { ExecutionsPage } from '../src/pages/executions/executions-page.js';
import { location, route } from '../src/router.js';
import type { SignedIn } from '../src/session.js';
import { as, SENT_ID } from './contacts-fixtures.js';
import { failure, fakeApi, type FakeCall, ok } from './fake-api.js';

const AT = '2026-11-26T09:00:00.000Z';
const execution = (id: number, status: number, status_text: string, overrides: Record<string, unknown> = {}) => ({
  id,
  workflow_id: 1,
  workflow_name: 'Welcome',
  contact_id: 42,
  event_id: 900,
  status,
  status_text,
  reason: null,
  goal_event_id: null,
  is_test: false,
  attempt: 1,
  retried_from: null,
  scheduled_for: AT,
  processed_at: AT,
  sent_email_id: null,
  created_at: AT,
  updated_at: AT,
  ...overrides,
});
const FAILED = execution(77, 4, 'failed', {
  reason: 'MessageRejected: Email address is on the suppression list',
  sent_email_id: SENT_ID,
});
const meta = (page: number, total: number) => ({
  page,
  per_page: 25,
  total,
  total_pages: Math.ceil(total / 25),
  total_is_exact: true,
});
const WORKFLOWS = ok(
  {
    workflows: [
      { id: 1, name: 'Welcome' },
      { id: 2, name: 'Trial ending' },
    ],
  },
  { total: 2, enabled: 2, max_workflows: 10 },
);

function Routed({ api, signedIn }: { api: Api; signedIn: SignedIn }) {
  return <ExecutionsPage api={api} params={route.value.params} signedIn={signedIn} />;
}

function at(search: string) {
  window.history.replaceState(null, '', `/app/executions${search}`);
  location.value = { pathname: '/app/executions', search };
}

const lists = (calls: FakeCall[]) =>
  calls.filter((call) => call.path === '/api/v1/client/executions').map((call) => Object.fromEntries(call.query));

beforeEach(() => at(''));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the executions page', () => {
  it("asks with the address's filters (the overview's link: status=4), and keeps changed filters in the address", async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/workflows': WORKFLOWS,
      'GET /api/v1/client/executions': ok({ executions: [FAILED] }, meta(1, 1)),
    });
    at('?status=4');
    render(<Routed api={createApi()} signedIn={as('owner')} />);
    const row = (await screen.findByRole('button', { name: 'Retry #77' })).closest('tr')!;

    // Assess: the row, the contact and the e-mail linked
    expect(row.textContent).toContain('Welcome');
    expect(row.textContent).toContain('failed — MessageRejected: Email address is on the suppression list');
    expect(within(row).getByRole('link', { name: 'Contact #42' }).getAttribute('href')).toBe('/app/contact/42');
    expect(within(row).getByRole('link', { name: 'E-mail of #77' }).getAttribute('href')).toBe(
      `/app/sent-email/${SENT_ID}`,
    );
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('4');

    // Act
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'Trial ending' })).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('Workflow'), { target: { value: '2' } });
    fireEvent.input(screen.getByLabelText('Created from (UTC day)'), { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));

    // Assess
    await waitFor(() => expect(lists(calls)).toHaveLength(2));
    expect(window.location.search).toBe('?status=4&workflow_id=2&created_from=2026-11-01');
    expect(lists(calls)).toEqual([
      { per_page: '25', status: '4' },
      { per_page: '25', status: '4', workflow_id: '2', created_from: '2026-11-01' },
    ]);
  });

  it('retries a failed execution, says which run is queued, and reads the list again', async () => {
    // Prepare
    let retried = false;
    const calls = fakeApi({
      'GET /api/v1/client/workflows': WORKFLOWS,
      'GET /api/v1/client/executions': () =>
        retried
          ? ok(
              {
                executions: [
                  execution(78, 1, 'queued', { retried_from: 77, attempt: 2, processed_at: null }),
                  { ...FAILED, status: 7, status_text: 'retried' },
                ],
              },
              meta(1, 2),
            )
          : ok({ executions: [FAILED] }, meta(1, 1)),
      'POST /api/v1/client/executions/77/retry': () => {
        retried = true;
        return {
          status: 202,
          body: {
            data: {
              execution_id: 78,
              queue_id: 78,
              workflow_id: 1,
              contact_id: 42,
              is_test: false,
              status: 1,
              status_text: 'queued',
              reason: null,
              processed_at: null,
              retried_from: 77,
            },
            errors: [],
            message: 'Retry queued',
            meta: { request_id: 'r' },
            success: true,
          },
        };
      },
    });
    render(<Routed api={createApi()} signedIn={as('member')} />);

    // Act
    fireEvent.click(await screen.findByRole('button', { name: 'Retry #77' }));

    // Assess
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Execution #77 is retried: run #78 is queued. Its outcome shows in this list.',
      ),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry #77' })).toBeNull());
    expect(screen.getByText('retries #77')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/v1/client/executions/77/retry',
    ]);
    expect(lists(calls)).toHaveLength(2);
  });

  it("shows a refused retry's message (409 state)", async () => {
    fakeApi({
      'GET /api/v1/client/workflows': WORKFLOWS,
      'GET /api/v1/client/executions': ok({ executions: [FAILED] }, meta(1, 1)),
      'POST /api/v1/client/executions/77/retry': failure(409, 'Only a failed execution can be retried', [
        { condition: 'state', error: 'It is retried', key: 'execution_id' },
      ]),
    });
    render(<Routed api={createApi()} signedIn={as('owner')} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Retry #77' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Only a failed execution can be retriedexecution_id It is retried',
    );
  });

  it('shows a viewer the executions without a retry', async () => {
    fakeApi({
      'GET /api/v1/client/workflows': WORKFLOWS,
      'GET /api/v1/client/executions': ok({ executions: [FAILED] }, meta(1, 1)),
    });

    render(<Routed api={createApi()} signedIn={as('viewer')} />);

    await screen.findByRole('link', { name: 'Contact #42' });
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
  });

  it('pages through the list, the filters kept', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/workflows': WORKFLOWS,
      'GET /api/v1/client/executions': (call) =>
        ok(
          { executions: [execution(call.query.get('page') === '2' ? 10 : 60, 3, 'completed')] },
          meta(Number(call.query.get('page') ?? 1), 60),
        ),
    });
    at('?status=3');
    render(<Routed api={createApi()} signedIn={as('owner')} />);

    fireEvent.click(await screen.findByRole('link', { name: 'Next page' }));

    await screen.findByText('#10');
    expect(screen.getByRole('navigation', { name: 'Pages of executions' }).textContent).toBe(
      'Previous pagePage 2 of 3Next page',
    );
    expect(lists(calls).at(-1)).toEqual({ per_page: '25', status: '3', page: '2' });
    expect(window.location.search).toBe('?status=3&page=2');
  });

  it("shows the API's error items at their filter", async () => {
    fakeApi({
      'GET /api/v1/client/workflows': WORKFLOWS,
      'GET /api/v1/client/executions': failure(422, 'Validation failed', [
        { condition: 'min', error: 'Must not be before created_from', key: 'created_to' },
      ]),
    });
    at('?created_from=2026-11-20&created_to=2026-11-01');

    render(<Routed api={createApi()} signedIn={as('owner')} />);

    expect((await screen.findByRole('alert')).textContent).toBe('Validation failed');
    const field = screen.getByLabelText('Created to (UTC day, included)');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Must not be before created_from',
    );
  });
});
