import '@preact/signals';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { WorkflowsPage } from '../src/pages/workflows/workflows-page.js';
import { delayText } from '../src/pages/workflows/workflow-text.js';
import { as, TOPIC } from './contacts-fixtures.js';
import { fakeApi, ok } from './fake-api.js';
import { PAYMENT_FAILED, workflowOf } from './workflows-fixtures.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the workflows list', () => {
  it('shows every workflow with its state, trigger, delay, send time, category and topic', async () => {
    // Prepare
    const onboarding = workflowOf(
      {
        id: 2,
        key: 'onboarding_tips',
        name: 'Onboarding tips',
        defaults: { ...workflowOf().defaults, send_slot: 'morning', send_time_mode: 1, delay_minutes: 1440 },
      },
      { workflow_id: 2, delay_minutes: 1440, send_time_mode: 1, topic_id: 3 },
    );
    const tuned = workflowOf(
      { id: 3, key: 'trial_ending', name: 'Trial ending', trigger: { event: 'trial_ending' } },
      { workflow_id: 3, delay_minutes: 90, send_time_mode: 1, preferred_send_hour: 9, preferred_send_minute: 5 },
    );
    fakeApi({
      'GET /api/v1/client/workflows': ok(
        { workflows: [workflowOf(), onboarding, tuned, PAYMENT_FAILED] },
        { total: 4, enabled: 3, max_workflows: 5 },
      ),
      'GET /api/v1/client/topics': ok({ topics: [TOPIC] }, { total: 1, max_topics: 20 }),
    });

    // Act
    render(<WorkflowsPage api={createApi()} params={{}} signedIn={as('owner')} />);

    // Assess
    const table = await screen.findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows[0]).toEqual([
      'Welcome#1 · Greets a new user right after sign-up and points to the first step.',
      'Enabled',
      'signup',
      'none',
      'Immediately',
      'Marketing',
      'None',
    ]);
    await screen.findByText('Product news');
    const second = within(table).getAllByRole('row')[2]!;
    expect(within(second).getByText('Product news')).toBeTruthy();
    expect(within(second).getByText('In the morning slot, contact’s time')).toBeTruthy();
    expect(within(within(table).getAllByRole('row')[3]!).getByText('At 09:05, contact’s time')).toBeTruthy();
    expect(within(within(table).getAllByRole('row')[3]!).getByText('1 h 30 min')).toBeTruthy();
    const payment = within(table).getAllByRole('row')[4]!;
    expect([...payment.children].map((cell) => cell.textContent).slice(1)).toEqual([
      'Disabled',
      'payment_failed',
      '1 h',
      'Immediately',
      'Transactional',
      'None (transactional)',
    ]);
    expect(screen.getByRole('link', { name: 'Welcome' }).getAttribute('href')).toBe('/app/workflow/1');
    expect(screen.getByText(/3/, { selector: 'strong' }).parentElement!.textContent).toContain(
      '3 of 4 workflows enabled; your plan runs at most 5.',
    );
    expect(screen.getByRole('link', { name: 'enabled workflows' }).getAttribute('href')).toBe('/app/settings');
    // The table scrolls inside a focusable region on a phone.
    expect(screen.getByRole('region', { name: 'Workflows table' }).getAttribute('tabindex')).toBe('0');
  });

  it('tells a role without settings rights who chooses which workflows run', async () => {
    fakeApi({
      'GET /api/v1/client/workflows': ok({ workflows: [workflowOf()] }, { total: 1, enabled: 1, max_workflows: 5 }),
      'GET /api/v1/client/topics': ok({ topics: [] }, { total: 0, max_topics: 20 }),
    });

    render(<WorkflowsPage api={createApi()} params={{}} signedIn={as('viewer')} />);

    await screen.findByRole('table');
    expect(screen.queryByRole('link', { name: 'enabled workflows' })).toBeNull();
    expect(screen.getByText(/An owner or an admin chooses which run/)).toBeTruthy();
  });

  it('says delays as people do', () => {
    expect([0, 30, 60, 90, 1440, 4320, 1500].map(delayText)).toEqual([
      'none',
      '30 min',
      '1 h',
      '1 h 30 min',
      '1 day',
      '3 days',
      '1 day 1 h',
    ]);
  });
});
