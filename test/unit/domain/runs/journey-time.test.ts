import { beforeEach, describe, expect, it } from 'vitest';
import type { JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import { RUN_CLIENT, T0 } from './run-fixtures.js';
import { runWorld, type RunWorld, startJourney } from './run-world.js';

/** A journey minute as a sped-up local runtime makes it last (LOCAL_JOURNEY_MINUTE_MS=1000). */
const FAST_MINUTE_MS = 1_000;

const first = { client_id: RUN_CLIENT, run_id: 4242, seq: 1, contact_id: 100 };

let world: RunWorld;

const journeyWith = (steps: JourneyStep[]) => startJourney(world, steps);

beforeEach(async () => {
  world = await runWorld();
  await world.contact({ timezone: 'UTC' });
});

describe('advanceRun: how long a journey minute lasts (JourneyTime)', () => {
  const waitForCheckout: JourneyStep[] = [
    {
      id: 'checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: false,
      timeout_minutes: 30,
      on_event: null,
      on_timeout: null,
    },
  ];

  it('without a JourneyTime a timeout is real minutes: 30 minutes from now, past SQS, to the scheduler', async () => {
    // Prepare
    await journeyWith(waitForCheckout);

    // Act
    await world.advance(first);

    // Assess
    const due = new Date(Date.parse(T0) + 30 * 60_000).toISOString();
    expect(world.run(4242)).toMatchObject({ status: 'waiting', due_at: due });
    expect(world.stored(100)).toMatchObject({ wait_4242: { t: due } });
    expect(world.scheduler.scheduled.map((s) => s.instant)).toEqual([due]);
    expect(world.journeyMessages()).toEqual([]);
  });

  it('a faster minute shortens the timeout, its marker and its message alike, and the timeout fires at that time', async () => {
    // Prepare
    world.deps.journeyTime = { minuteMs: FAST_MINUTE_MS };
    await journeyWith(waitForCheckout);

    // Act
    await world.advance(first);

    // Assess: due 30 s on, the marker an event reads says so too, and the run's message is an SQS delay of 30 s.
    const due = new Date(Date.parse(T0) + 30 * FAST_MINUTE_MS).toISOString();
    expect(world.run(4242)).toMatchObject({ status: 'waiting', seq: 2, due_at: due });
    expect(world.stored(100)).toMatchObject({ wait_4242: { t: due } });
    expect(world.scheduler.scheduled).toEqual([]);
    expect(world.queue.sent.filter((s) => s.queue === 'journey').map((s) => s.options)).toEqual([{ delaySeconds: 30 }]);

    // Act: a second early the message goes back; at the scaled due time the run leaves by its timeout.
    world.clock.advance(29 * FAST_MINUTE_MS);
    expect(await world.advance({ ...first, seq: 2 })).toEqual({ kind: 'not_due' });
    world.clock.advance(FAST_MINUTE_MS);
    const outcome = await world.advance({ ...first, seq: 2 });

    // Assess
    expect(outcome.kind).toBe('moved');
    expect(world.run(4242)).toMatchObject({ status: 'completed', path: [{ step: 'checkout', via: 'on_timeout' }] });
  });

  it('a faster minute shortens a wait step too, but not a wait_until (a time of day stays a time of day)', async () => {
    // Prepare
    world.deps.journeyTime = { minuteMs: FAST_MINUTE_MS };
    await journeyWith([
      { id: 'pause', type: 'wait', minutes: 90, next: 'morning' },
      { id: 'morning', type: 'wait_until', time: '09:00', next: null },
    ]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({
      step_id: 'pause',
      due_at: new Date(Date.parse(T0) + 90 * FAST_MINUTE_MS).toISOString(),
    });

    // Act: the wait is over 90 s later; the next 09:00 UTC after 10:00:90 is the next day's.
    world.clock.advance(90 * FAST_MINUTE_MS);
    await world.advance({ ...first, seq: 2 });

    // Assess
    expect(world.run(4242)).toMatchObject({ step_id: 'morning', due_at: '2026-01-16T09:00:00.000Z' });
  });
});
