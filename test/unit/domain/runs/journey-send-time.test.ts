import { beforeEach, describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import type { JourneyStep, SendStep } from '../../../../shared/domain/journeys/definition/types.js';
import { SEND_CHECK_AFTER_MS } from '../../../../shared/domain/runs/walk-steps.js';
import { definitionOf, indexedOf, indexOf, RUN_CLIENT, runRecord, T0, versionOf } from './run-fixtures.js';
import { runWorld, type RunWorld } from './run-world.js';

// T0 is Thursday 2026-01-15 10:00 UTC: 11:00 in Paris, 05:00 in New York.
let world: RunWorld;

const first = { client_id: RUN_CLIENT, run_id: 4242, seq: 1, contact_id: 100 };

/** Publishes a journey of one send step with this send time as version 1 (live) and starts the run at it. */
function journeyWithSend(sendTime: SendStep['send_time']): void {
  const steps: JourneyStep[] = [
    { id: 'nudge', type: 'send', template_id: 3, priority_score: 60, send_time: sendTime, next: null },
  ];
  const definition = definitionOf(steps);
  world.journeys.publish(versionOf(definition, 1));
  world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(definition)));
  const run = runRecord({ step_id: 'nudge' });
  world.start(run);
  world.lock(run);
}

/** Sets open-hour counters (`open_hNN`) on the stored contact, as human opens in tracking leave them. */
function contactOpens(hours: Record<number, number>): void {
  const contact = world.stored(100)!;
  for (const [hour, count] of Object.entries(hours)) contact[`open_h${hour.padStart(2, '0')}`] = count;
}

/** Advances the run into its send step and returns the execution it planned, and the run. */
async function plannedSend() {
  const outcome = await world.advance(first);
  expect(outcome.kind).toBe('moved');
  const run = world.run(4242)!;
  const execution = world.execution(run.sends['nudge']!.execution_id)!;
  return { run, execution };
}

/** The run waits on its queued send: until its send time, its safety net an hour after it. */
function expectRunWaitsFor(run: ReturnType<RunWorld['run']>, executionId: number, scheduledFor: string): void {
  expect(run).toMatchObject({
    status: 'active',
    step_id: 'nudge',
    wait: { kind: 'send', execution_id: executionId, until: scheduledFor },
    due_at: new Date(Date.parse(scheduledFor) + SEND_CHECK_AFTER_MS).toISOString(),
  });
}

beforeEach(async () => {
  world = await runWorld();
});

describe('a journey send step in send time mode 1 (the preferred time of day)', () => {
  it.each([
    {
      zone: 'Europe/Paris',
      time: { preferred_hour: 18, preferred_minute: 30 },
      at: '2026-01-15T17:30:00.000Z',
      why: '18:30 in Paris is still ahead today',
    },
    {
      zone: 'Europe/Paris',
      time: { preferred_hour: 9, preferred_minute: 15 },
      at: '2026-01-16T08:15:00.000Z',
      why: '09:15 in Paris has passed (it is 11:00 there), so tomorrow’s',
    },
    {
      zone: 'America/New_York',
      time: { preferred_hour: 9, preferred_minute: 15 },
      at: '2026-01-15T14:15:00.000Z',
      why: 'it is 05:00 in New York, so today’s 09:15 there',
    },
    {
      zone: 'America/New_York',
      time: { preferred_hour: 7 },
      at: '2026-01-15T12:00:00.000Z',
      why: 'a minute left out is :00',
    },
  ])('plans the e-mail at the contact’s local preferred time: $why', async ({ zone, time, at }) => {
    // Prepare
    await world.contact({ timezone: zone });
    journeyWithSend({ mode: 1, ...time });

    // Act
    const { run, execution } = await plannedSend();

    // Assess
    expect(execution).toMatchObject({
      status: EXECUTION_STATUS.queued,
      scheduled_for: at,
      reason: 'preferred_time',
      send_zone: zone,
      cap_day: at.slice(0, 10),
      step_id: 'nudge',
      template_id: 3,
      priority_score: 60,
    });
    expectRunWaitsFor(run, execution.id, at);
    // Hours away: the execution's message comes from a schedule at its send time, not from the queue now.
    expect(world.scheduler.scheduled).toContainEqual(
      expect.objectContaining({
        instant: at,
        queue: 'workflow',
        message: { client_id: RUN_CLIENT, execution_id: execution.id },
      }),
    );
    expect(world.queue.sent.filter((s) => s.queue === 'workflow')).toEqual([]);
  });

  it('without a preferred hour uses the client’s slot the step names (afternoon: the client’s afternoon time)', async () => {
    // Prepare
    await world.settings(RUN_CLIENT, { afternoon_send_hour: 15, afternoon_send_minute: 45 });
    await world.contact({ timezone: 'Europe/Paris' });
    journeyWithSend({ mode: 1, slot: 'afternoon' });

    // Act
    const { execution } = await plannedSend();

    // Assess: 15:45 in Paris.
    expect(execution).toMatchObject({ scheduled_for: '2026-01-15T14:45:00.000Z', reason: 'preferred_time' });
  });

  it('falls back to the contact’s then the client’s zone: a contact without one is read in the client’s', async () => {
    // Prepare
    await world.settings(RUN_CLIENT, { timezone: 'Asia/Tokyo' });
    await world.contact();
    journeyWithSend({ mode: 1, preferred_hour: 21, preferred_minute: 0 });

    // Act
    const { execution } = await plannedSend();

    // Assess: 10:00 UTC is 19:00 in Tokyo; 21:00 there is 12:00 UTC, on Tokyo's 15th.
    expect(execution).toMatchObject({
      scheduled_for: '2026-01-15T12:00:00.000Z',
      send_zone: 'Asia/Tokyo',
      cap_day: '2026-01-15',
    });
  });
});

describe('a journey send step in send time mode 2 (optimal, from human opens)', () => {
  it('plans the e-mail at the contact’s most opened local hour when it has at least 3 human opens', async () => {
    // Prepare: most opens at 20:00 Paris time, fewer at 08:00; the client's aggregate points elsewhere.
    await world.contact({ timezone: 'Europe/Paris' });
    contactOpens({ 20: 5, 8: 2 });
    world.data.clientOpenHours.set(RUN_CLIENT, { open_h14: 40 });
    journeyWithSend({ mode: 2 });

    // Act
    const { run, execution } = await plannedSend();

    // Assess: today's 20:00 in Paris.
    expect(execution).toMatchObject({
      status: EXECUTION_STATUS.queued,
      scheduled_for: '2026-01-15T19:00:00.000Z',
      reason: 'contact_open_hours',
      send_zone: 'Europe/Paris',
    });
    expectRunWaitsFor(run, execution.id, '2026-01-15T19:00:00.000Z');
  });

  it('takes an hour already passed today at tomorrow’s start, within 24 hours', async () => {
    // Prepare: most opens at 07:00 in Paris (it is 11:00 there).
    await world.contact({ timezone: 'Europe/Paris' });
    contactOpens({ 7: 4 });
    journeyWithSend({ mode: 2 });

    // Act
    const { execution } = await plannedSend();

    // Assess
    expect(execution).toMatchObject({ scheduled_for: '2026-01-16T06:00:00.000Z', reason: 'contact_open_hours' });
  });

  it('follows the client’s open hours (≥ 10 opens) when the contact has fewer than 3', async () => {
    // Prepare
    await world.contact({ timezone: 'Europe/Paris' });
    contactOpens({ 20: 2 });
    world.data.clientOpenHours.set(RUN_CLIENT, { open_h14: 12, open_h16: 3 });
    journeyWithSend({ mode: 2 });

    // Act
    const { execution } = await plannedSend();

    // Assess: the client's busiest hour, 14:00 read in the contact's zone.
    expect(execution).toMatchObject({ scheduled_for: '2026-01-15T13:00:00.000Z', reason: 'client_open_hours' });
  });

  it('without enough history goes at the step’s preferred time when it names one', async () => {
    // Prepare
    await world.contact({ timezone: 'Europe/Paris' });
    contactOpens({ 20: 2 });
    world.data.clientOpenHours.set(RUN_CLIENT, { open_h14: 9 });
    journeyWithSend({ mode: 2, preferred_hour: 18, preferred_minute: 5 });

    // Act
    const { execution } = await plannedSend();

    // Assess
    expect(execution).toMatchObject({ scheduled_for: '2026-01-15T17:05:00.000Z', reason: 'preferred_time' });
  });

  it('without any history nor preferred time goes at once (no_open_history)', async () => {
    // Prepare
    await world.contact({ timezone: 'Europe/Paris' });
    journeyWithSend({ mode: 2 });

    // Act
    const { run, execution } = await plannedSend();

    // Assess
    expect(execution).toMatchObject({ scheduled_for: T0, reason: 'no_open_history' });
    expectRunWaitsFor(run, execution.id, T0);
    expect(world.queue.sent).toContainEqual({
      queue: 'workflow',
      message: { client_id: RUN_CLIENT, execution_id: execution.id },
      options: { delaySeconds: 0 },
    });
  });
});
