import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { WorkflowPage } from '../src/pages/workflows/workflow-page.js';
import { patchOf, draftOf } from '../src/pages/workflows/customization-form.js';
import { location } from '../src/router.js';
import { as, TOPIC } from './contacts-fixtures.js';
import { failure, type FakeAnswer, type FakeCall, fakeApi, ME, ok } from './fake-api.js';
import { charts } from './uplot-fake.js';
import { AUDIT_ENTRY, PAYMENT_FAILED, STATS, TEMPLATES, workflowOf } from './workflows-fixtures.js';

vi.mock('uplot', () => import('./uplot-fake.js'));

const page = (meta: Record<string, number>) => ({ page: 1, per_page: 10, total: 0, total_pages: 0, ...meta });

function answers(
  extra: Record<string, FakeAnswer | ((call: FakeCall) => FakeAnswer)> = {},
  workflows: unknown[] = [workflowOf(), PAYMENT_FAILED],
) {
  return {
    'GET /api/v1/client/workflows': ok({ workflows }, { total: workflows.length, enabled: 1, max_workflows: 5 }),
    'GET /api/v1/client/workflows/1/stats': ok(STATS),
    'GET /api/v1/client/workflows/1/customization/audit': ok({ entries: [] }, page({})),
    'GET /api/v1/client/topics': ok({ topics: [TOPIC] }, { total: 1, max_topics: 20 }),
    'GET /api/v1/client/users': ok({ users: [{ ...ME.user, updated_at: ME.user.created_at }] }),
    'POST /api/v1/client/email-templates/list': ok(
      { templates: TEMPLATES },
      page({ total: 2, total_pages: 1, per_page: 100 }),
    ),
    ...extra,
  };
}

beforeEach(() => {
  charts.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a workflow’s page', () => {
  it('links to itself as a journey, where a copy of it can change anything', async () => {
    // Prepare
    fakeApi(answers());

    // Act
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('owner')} />);

    // Assess
    const link = await screen.findByRole('link', { name: 'as a journey' });
    expect(link.getAttribute('href')).toBe('/app/journey/1');
  });

  it('shows its funnel, conversions, reasons and chart for the last 30 days, and another range on demand', async () => {
    // Prepare
    const calls = fakeApi(answers());

    // Act
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('owner')} />);

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome' })).toBeTruthy();
    const funnel = await screen.findByRole('list', { name: 'Funnel, last 30 days' });
    expect(
      within(funnel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Triggered4',
      'Sent375.0 % of the step before',
      'Delivered3100.0 % of the step before',
      'Opened (humans)133.3 % of the step before',
      'Clicked (humans)1100.0 % of the step before',
    ]);
    const goals = screen.getByRole('heading', { name: 'Goals' }).parentElement!;
    expect(goals.textContent).toContain('Converted1 (33.3 % of sent)');
    expect(goals.textContent).toContain('Exited before sending1');
    expect(screen.getByRole('heading', { name: 'Why runs were skipped' }).parentElement!.textContent).toContain(
      'unsubscribed1',
    );
    expect(screen.getByRole('heading', { name: 'Why runs failed' }).parentElement!.textContent).toContain(
      'No run failed.',
    );
    await waitFor(() => expect(charts).toHaveLength(1));
    expect(charts[0]!.options.series.map((s) => s.label)).toEqual([
      'Day',
      'Triggered',
      'Sent',
      'Delivered',
      'Human opens',
      'Human clicks',
      'Conversions',
    ]);
    expect(charts[0]!.data.slice(1)).toEqual([
      [3, 1],
      [2, 1],
      [2, 1],
      [1, 0],
      [0, 1],
      [0, 1],
    ]);
    const stats = calls.filter((call) => call.path === '/api/v1/client/workflows/1/stats');
    expect(stats).toHaveLength(1);

    fireEvent.click(screen.getByLabelText('7 days'));
    await screen.findByRole('list', { name: 'Funnel, last 7 days' });
    const last = calls.filter((call) => call.path === '/api/v1/client/workflows/1/stats').at(-1)!;
    expect(Date.parse(last.query.get('to')!) - Date.parse(last.query.get('from')!)).toBe(6 * 86_400_000);
  });

  it('saves a customization, shows a 422 at its field first, and lists the change in the history', async () => {
    // Prepare
    let saved = workflowOf();
    let entries: unknown[] = [];
    const calls = fakeApi(
      answers({
        'GET /api/v1/client/workflows': () => ok({ workflows: [saved] }, { total: 1, enabled: 1, max_workflows: 5 }),
        'GET /api/v1/client/workflows/1/customization/audit': () =>
          ok({ entries }, page({ total: entries.length, total_pages: entries.length ? 1 : 0 })),
        'PATCH /api/v1/client/workflows/1/customization': (call) => {
          const body = call.body as { delay_minutes: number };
          if (body.delay_minutes > 525_600)
            return failure(422, 'Validation failed', [
              { condition: 'max', error: 'Must be at most 525600', key: 'delay_minutes' },
            ]);
          saved = workflowOf(
            {},
            {
              delay_minutes: 30,
              exit_events: ['upgrade'],
              overrides: { ...workflowOf().customization.overrides, delay_minutes: 30, exit_events: ['upgrade'] },
              updated_at: '2026-11-26T09:30:00.000Z',
            },
          );
          entries = [AUDIT_ENTRY];
          return ok(saved.customization);
        },
      }),
    );
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('member')} />);
    const delay = (await screen.findByLabelText('Delay (minutes)')) as HTMLInputElement;
    expect(await screen.findByText('No change yet: the workflow runs with its defaults.')).toBeTruthy();

    // Act: a delay beyond a year
    fireEvent.input(delay, { target: { value: '999999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save customization' }));

    // Assess: the API's error at the field
    await waitFor(() => expect(delay.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(delay.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent).toBe(
      'Must be at most 525600',
    );
    expect(screen.getByRole('alert').textContent).toBe('Validation failed');

    // Act: a valid delay and an exit event
    fireEvent.input(delay, { target: { value: '30' } });
    fireEvent.click(screen.getByLabelText('Use the default (none)'));
    fireEvent.click(screen.getByRole('button', { name: 'Add an exit event' }));
    fireEvent.input(screen.getByLabelText('Exit event 1'), { target: { value: ' upgrade ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save customization' }));

    // Assess
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Customization saved.'));
    expect(calls.filter((call) => call.method === 'PATCH').at(-1)!.body).toEqual({
      delay_minutes: 30,
      exit_events: ['upgrade'],
    });
    await waitFor(() => expect(document.getElementById('wf-audit')).not.toBeNull());
    const entry = document.getElementById('wf-audit')!.textContent!;
    expect(entry).toContain('2026-11-26 09:30:00 UTC · Demo Owner (demo@example.com)');
    expect(entry).toContain('Delay (minutes): default → 30');
    expect(entry).toContain('Exit events: default → upgrade');
    await waitFor(() => expect((screen.getByLabelText('Delay (minutes)') as HTMLInputElement).value).toBe('30'));
    expect(delay.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows an exit event the API refuses at its row, and caps the list at 10', async () => {
    fakeApi(
      answers({
        'PATCH /api/v1/client/workflows/1/customization': failure(422, 'Validation failed', [
          { condition: 'format', error: 'signup starts this workflow, so it cannot end it', key: 'exit_events.1' },
        ]),
      }),
    );
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('owner')} />);
    fireEvent.click(await screen.findByLabelText('Use the default (none)'));
    for (let n = 0; n < 2; n += 1) fireEvent.click(screen.getByRole('button', { name: 'Add an exit event' }));
    fireEvent.input(screen.getByLabelText('Exit event 1'), { target: { value: 'upgrade' } });
    fireEvent.input(screen.getByLabelText('Exit event 2'), { target: { value: 'signup' } });

    fireEvent.click(screen.getByRole('button', { name: 'Save customization' }));

    const second = screen.getByLabelText('Exit event 2');
    await waitFor(() => expect(second.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(second.getAttribute('aria-describedby')!)!.textContent).toBe(
      'signup starts this workflow, so it cannot end it',
    );
    expect(screen.getByLabelText('Exit event 1').getAttribute('aria-invalid')).toBeNull();
    for (let n = 0; n < 8; n += 1) fireEvent.click(screen.getByRole('button', { name: 'Add an exit event' }));
    expect((screen.getByRole('button', { name: 'Add an exit event' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('At most 10.')).toBeTruthy();
  });

  it('offers the system template and the client’s own, and sends the choice', async () => {
    const calls = fakeApi(
      answers({ 'PATCH /api/v1/client/workflows/1/customization': ok(workflowOf().customization) }),
    );
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('owner')} />);
    const template = (await screen.findByLabelText('Template')) as HTMLSelectElement;
    await waitFor(() =>
      expect([...template.options].map((option) => option.textContent)).toEqual([
        'System template: Welcome (system) (#1, default)',
        'My welcome (#1002, yours)',
      ]),
    );

    fireEvent.change(template, { target: { value: '1002' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save customization' }));

    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({ template_id: 1002 });
    expect(calls.find((call) => call.method === 'POST' && call.path.endsWith('/list'))!.body).toEqual({
      page: 1,
      per_page: 100,
    });
  });

  it('explains each send time mode and offers a topic only to a marketing workflow', async () => {
    fakeApi(
      answers({
        'GET /api/v1/client/workflows/5/stats': ok({ ...STATS, workflow_id: 5 }),
        'GET /api/v1/client/workflows/5/customization/audit': ok({ entries: [] }, page({})),
      }),
    );
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('owner')} />);
    await screen.findByLabelText('Delay (minutes)');
    for (const name of ['Default', '0 · Immediately', '1 · At a preferred time', '2 · Optimal']) {
      const radio = screen.getByRole('radio', { name: new RegExp(`^${name}`) });
      expect(document.getElementById(radio.getAttribute('aria-describedby')!)!.textContent!.length).toBeGreaterThan(20);
    }
    expect(screen.getByLabelText('Topic')).toBeTruthy();
    cleanup();

    render(<WorkflowPage api={createApi()} params={{ id: '5' }} signedIn={as('owner')} />);
    await screen.findByLabelText('Delay (minutes)');
    expect(screen.queryByLabelText('Topic')).toBeNull();
    expect(screen.getByText(/A transactional workflow belongs to no topic/)).toBeTruthy();
  });

  it('shows the history paged, who changed what, before → after', async () => {
    const byKey = {
      ...AUDIT_ENTRY,
      id: 'a2',
      auth_method: 'api_key',
      key_id: 7,
      user_id: undefined,
      before: { ...AUDIT_ENTRY.after },
      after: { ...AUDIT_ENTRY.after, topic_id: 3, send_time_mode: 2 },
    };
    const calls = fakeApi(
      answers({
        'GET /api/v1/client/workflows/1/customization/audit': (call) =>
          call.query.get('page') === '2'
            ? ok({ entries: [AUDIT_ENTRY] }, page({ page: 2, total: 11, total_pages: 2 }))
            : ok({ entries: [byKey] }, page({ total: 11, total_pages: 2 })),
      }),
    );
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('viewer')} />);

    await waitFor(() => expect(document.getElementById('wf-audit')).not.toBeNull());
    const history = document.getElementById('wf-audit')!;
    await waitFor(() => expect(history.textContent).toContain('Topic: default → Product news'));
    expect(history.textContent).toContain('API key #7');
    expect(history.textContent).toContain('Send time: 0 · Immediately → 2 · Optimal');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Older' }));

    await screen.findByText('Page 2 of 2');
    await waitFor(() =>
      expect(document.getElementById('wf-audit')!.textContent).toContain('Delay (minutes): default → 30'),
    );
    expect(calls.filter((call) => call.path.endsWith('/audit')).map((call) => call.query.get('page'))).toEqual([
      '1',
      '2',
    ]);
  });

  it('shows a viewer the customization in effect with no control to change it or copy the template', async () => {
    const calls = fakeApi(answers());

    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('viewer')} />);

    const effect = (await screen.findByRole('heading', { name: 'Customization' })).parentElement!;
    expect(effect.textContent).toContain('Delay0 min (none)');
    expect(effect.textContent).toContain('Exit eventsnone (default)');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Save|Copy/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Your own copy of the template' })).toBeNull();
    // A viewer's page does not ask for the template list (only the form uses it).
    expect(calls.some((call) => call.path.endsWith('/email-templates/list'))).toBe(false);
  });

  it('copies the system template and opens the copy’s page', async () => {
    const calls = fakeApi(
      answers({
        'POST /api/v1/client/workflows/1/clone-template': {
          status: 201,
          body: {
            data: { id: 1003, template_id: 1003, workflow_id: 1 },
            errors: [],
            message: 'Created',
            meta: { request_id: 'r' },
            success: true,
          },
        },
      }),
    );
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('member')} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Copy the system template and edit it' }));

    await waitFor(() => expect(location.value.pathname).toBe('/app/template/1003'));
    expect(location.value.search).toBe('');
    expect(
      calls.some((call) => call.method === 'POST' && call.path === '/api/v1/client/workflows/1/clone-template'),
    ).toBe(true);
  });

  it('links to the copy when there is one, and says when there is no such workflow', async () => {
    fakeApi(answers({}, [workflowOf({ clone_template_id: 1002 })]));
    render(<WorkflowPage api={createApi()} params={{ id: '1' }} signedIn={as('owner')} />);
    expect((await screen.findByRole('link', { name: 'edit your copy (#1002)' })).getAttribute('href')).toBe(
      '/app/template/1002',
    );
    cleanup();

    render(<WorkflowPage api={createApi()} params={{ id: '42' }} signedIn={as('owner')} />);
    expect(await screen.findByRole('heading', { name: 'No such workflow' })).toBeTruthy();
  });
});

describe('the customization form’s request', () => {
  it('sends only what changed, null for an emptied field, and the hour with a minute', () => {
    const workflow = workflowOf(
      {},
      { overrides: { ...workflowOf().customization.overrides, preferred_send_hour: 9, delay_minutes: 30 } },
    );
    const saved = draftOf(workflow as never);
    const draft = { ...saved, delay_minutes: '', preferred_send_minute: '15', priority_score: 'x' };

    expect(patchOf(draft, saved)).toEqual({
      delay_minutes: null,
      preferred_send_minute: 15,
      preferred_send_hour: 9,
      priority_score: 'x',
    });
    expect(patchOf({ ...saved, exit_events: [] }, saved)).toEqual({ exit_events: [] });
  });
});
