import { beforeEach, describe, expect, it } from 'vitest';
import type { JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import { definitionOf, indexedOf, indexOf, RUN_CLIENT, runRecord, versionOf } from './run-fixtures.js';
import { runWorld, type RunWorld } from './run-world.js';

// T0 is Thursday 2026-01-15 10:00 UTC, 11:00 in Paris (UTC+1 in winter).
let world: RunWorld;

const first = { client_id: RUN_CLIENT, run_id: 4242, seq: 1, contact_id: 100 };

/** A journey that waits until `time` on `weekdays`, then exits. */
function journeyWaitingUntil(time: string, weekdays: number[]): void {
  const steps: JourneyStep[] = [
    { id: 'on_day', type: 'wait_until', time, weekdays, next: 'bye' },
    { id: 'bye', type: 'exit' },
  ];
  const definition = definitionOf(steps);
  world.journeys.publish(versionOf(definition, 1));
  world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(definition)));
  const run = runRecord({ step_id: 'on_day' });
  world.start(run);
  world.lock(run);
}

/** Moves the fixed clock to `iso` (it only advances by a duration). */
const clockAt = (iso: string): void => world.clock.advance(Date.parse(iso) - world.clock.now().getTime());

beforeEach(async () => {
  world = await runWorld();
  await world.contact({ timezone: 'Europe/Paris' });
});

describe('advanceRun: a wait_until step with weekdays', () => {
  it.each([
    { weekdays: [1], time: '09:00', due: '2026-01-19T08:00:00.000Z', why: 'Thursday → the next Monday' },
    { weekdays: [6, 7], time: '09:00', due: '2026-01-17T08:00:00.000Z', why: 'Thursday → Saturday, the first listed' },
    { weekdays: [4], time: '09:00', due: '2026-01-22T08:00:00.000Z', why: 'today’s 09:00 has passed → next Thursday' },
    { weekdays: [4], time: '18:00', due: '2026-01-15T17:00:00.000Z', why: 'today listed, its 18:00 ahead → today' },
    {
      weekdays: [2, 5],
      time: '12:00',
      due: '2026-01-16T11:00:00.000Z',
      why: 'Thursday noon ahead but not listed → Friday',
    },
  ])('waits until the local time on the next listed weekday: $why', async ({ weekdays, time, due }) => {
    // Prepare
    journeyWaitingUntil(time, weekdays);

    // Act
    const outcome = await world.advance(first);

    // Assess
    expect(outcome.kind).toBe('moved');
    expect(world.run(4242)).toMatchObject({
      status: 'active',
      seq: 2,
      step_id: 'on_day',
      due_at: due,
      wait: { kind: 'wait_until', until: due },
    });
    // Hours or days away: the run comes back from a schedule at that instant.
    expect(world.scheduler.scheduled).toEqual([
      {
        instant: due,
        queue: 'journey',
        // The message names the run and its new seq (any hints it carries besides are not this test's).
        message: expect.objectContaining({ ...first, seq: 2 }),
        name: `run-${RUN_CLIENT}-4242-2-${Date.parse(due)}`,
      },
    ]);
  });

  it('is not left before that day: an earlier arrival is sent back, the one at the time goes on', async () => {
    // Prepare: Monday only; the run arrives again on Friday (a day not listed), then on Monday at 09:00 Paris.
    journeyWaitingUntil('09:00', [1]);
    await world.advance(first);
    clockAt('2026-01-16T08:00:00.000Z');

    // Act
    const early = await world.advance({ ...first, seq: 2 });
    clockAt('2026-01-19T08:00:00.000Z');
    const onTime = await world.advance({ ...first, seq: 2 });

    // Assess
    expect(early).toEqual({ kind: 'not_due' });
    expect(onTime.kind).toBe('moved');
    expect(world.run(4242)).toMatchObject({ status: 'exited', reason: 'exit_step', seq: 3, step_id: 'bye' });
    expect(world.run(4242)!.path).toEqual([
      { step: 'on_day', seq: 3, at: '2026-01-19T08:00:00.000Z' },
      { step: 'bye', seq: 3, at: '2026-01-19T08:00:00.000Z' },
    ]);
  });

  it('reads the weekday in the contact’s zone, not in UTC (Sunday 23:30 UTC is Monday in Tokyo)', async () => {
    // Prepare: Tokyo is UTC+9; the run reaches the step on Sunday 2026-01-18 at 23:30 UTC, Monday 08:30 there.
    world.stored(100)!.timezone = 'Asia/Tokyo';
    journeyWaitingUntil('09:00', [1]);
    clockAt('2026-01-18T23:30:00.000Z');

    // Act
    await world.advance(first);

    // Assess: Monday 09:00 in Tokyo, half an hour later — not the next Monday.
    expect(world.run(4242)).toMatchObject({ due_at: '2026-01-19T00:00:00.000Z' });
  });
});
