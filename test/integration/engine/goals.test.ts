import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';

/** Goals over HTTP on the local runtime: exit_events and conversion_window_days, and an exit that stops a win-back. */
describe('goals and exit conditions over HTTP', () => {
  it('shows the catalog defaults, accepts exit_events and conversion_window_days, audits them, and null goes back to the default', async () => {
    // Prepare
    const client = await createTestClient();

    // Act
    const before = await call('GET', '/client/workflows', { key: client.api_key });
    const patched = await call('PATCH', '/client/workflows/3/customization', {
      key: client.api_key,
      body: { exit_events: ['upgrade', 'purchase'], conversion_window_days: 30 },
    });
    const listed = await call('GET', '/client/workflows', { key: client.api_key });
    const audit = await call('GET', '/client/workflows/3/customization/audit', { key: client.api_key });
    const reset = await call('PATCH', '/client/workflows/3/customization', {
      key: client.api_key,
      body: { exit_events: null, conversion_window_days: null },
    });

    // Assess
    const winback = before.body.data.workflows.find((w: { id: number }) => w.id === 6);
    expect(winback.defaults).toMatchObject({
      exit_events: ['upgrade', 'subscription_reactivated'],
      conversion_window_days: 7,
    });
    expect(winback.customization).toMatchObject({
      exit_events: ['upgrade', 'subscription_reactivated'],
      conversion_window_days: 7,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      workflow_id: 3,
      exit_events: ['upgrade', 'purchase'],
      conversion_window_days: 30,
      overrides: { exit_events: ['upgrade', 'purchase'], conversion_window_days: 30 },
    });
    expect(listed.body.data.workflows[2].customization).toMatchObject({
      exit_events: ['upgrade', 'purchase'],
      conversion_window_days: 30,
    });
    expect(audit.body.data.entries[0]).toMatchObject({
      before: { exit_events: null, conversion_window_days: null },
      after: { exit_events: ['upgrade', 'purchase'], conversion_window_days: 30 },
    });
    expect(reset.body.data).toMatchObject({
      exit_events: ['upgrade'],
      conversion_window_days: 7,
      overrides: { exit_events: null, conversion_window_days: null },
    });
  });

  it('refuses bad exit_events and conversion_window_days with one precise item each, writing nothing', async () => {
    const client = await createTestClient();

    const bad = await call('PATCH', '/client/workflows/3/customization', {
      key: client.api_key,
      body: { exit_events: ['upgrade', 'not a type', 'upgrade'], conversion_window_days: 91 },
    });
    const tooMany = await call('PATCH', '/client/workflows/3/customization', {
      key: client.api_key,
      body: { exit_events: Array.from({ length: 11 }, (_, i) => `goal_${i}`) },
    });
    const ownTrigger = await call('PATCH', '/client/workflows/6/customization', {
      key: client.api_key,
      body: { exit_events: ['upgrade', 'subscription_cancelled'] },
    });
    const audit = await call('GET', '/client/workflows/3/customization/audit', { key: client.api_key });

    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { key: string; condition: string }) => [e.key, e.condition])).toEqual([
      ['exit_events.1', 'format'],
      ['exit_events', 'format'],
      ['conversion_window_days', 'max'],
    ]);
    expect(tooMany.body.errors).toEqual([
      { condition: 'max', key: 'exit_events', error: 'Must list at most 10 event types' },
    ]);
    expect(ownTrigger.status).toBe(422);
    expect(ownTrigger.body.errors).toEqual([
      {
        condition: 'format',
        key: 'exit_events.1',
        error: 'subscription_cancelled starts this workflow, so it cannot end it',
      },
    ]);
    expect(audit.body.data.entries).toEqual([]);
  });

  it('a cancellation followed by subscription_reactivated cancels the win-back (5, goal_reached, the event id)', async () => {
    // Prepare: the win-back runs (settings), and Ada cancels.
    const client = await createTestClient();
    await call('PATCH', '/client/settings', { key: client.api_key, body: { enabled_workflows: [1, 6] } });
    const email = `winback-${randomUUID().slice(0, 8)}@example.com`;
    await call('POST', '/client/contacts', { key: client.api_key, body: { email } });
    const cancelled = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'subscription_cancelled', email },
    });
    const [winbackId] = cancelled.body.data.execution_ids;

    // Act
    const reactivated = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'subscription_reactivated', email },
    });

    // Assess
    expect(reactivated.status).toBe(201);
    const executions = await call('GET', '/client/executions?workflow_id=6', { key: client.api_key });
    expect(executions.body.data.executions).toEqual([
      expect.objectContaining({
        id: winbackId,
        status: 5,
        status_text: 'cancelled',
        reason: 'goal_reached',
        goal_event_id: reactivated.body.data.id,
      }),
    ]);
    // The day counters follow the facts through the change stream: read once the exit is counted.
    const stats = await eventually('the exit counted', async () => {
      const res = await call('GET', '/client/workflows/6/stats', { key: client.api_key });
      return res.body.data.totals.exited === 1 ? res : undefined;
    });
    expect(stats.body.data.totals).toMatchObject({ executions: 1, exited: 1, sent: 0 });
    const contact = await call('GET', `/client/contacts/${encodeURIComponent(email)}`, { key: client.api_key });
    expect(contact.body.data.active_workflow_count).toBe(0);
  });

  it('counts a conversion: an upgrade after the trial-ending e-mail was sent shows in the workflow stats with its rate', async () => {
    const client = await createTestClient();
    await call('PATCH', '/client/settings', { key: client.api_key, body: { enabled_workflows: [1, 3] } });
    const email = `convert-${randomUUID().slice(0, 8)}@example.com`;
    await call('POST', '/client/contacts', { key: client.api_key, body: { email } });
    const trial = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'trial_ending', email },
    });
    const [reminderId] = trial.body.data.execution_ids;
    await eventually('the reminder sent', async () => {
      const res = await call('GET', '/client/executions?workflow_id=3', { key: client.api_key });
      return res.body.data.executions.find(
        (e: { id: number; status: number }) => e.id === reminderId && e.status === 3,
      );
    });

    await call('POST', '/client/events?sync=true', { key: client.api_key, body: { type: 'upgrade', email } });
    await call('POST', '/client/events?sync=true', { key: client.api_key, body: { type: 'upgrade', email } });

    const stats = await eventually('the conversion counted', async () => {
      const res = await call('GET', '/client/workflows/3/stats', { key: client.api_key });
      return res.body.data.totals.converted === 1 ? res : undefined;
    });
    expect(stats.body.data.totals).toMatchObject({ sent: 1, converted: 1, exited: 0 });
    expect(stats.body.data.rates.conversion_rate).toBe(1);
  });
});
