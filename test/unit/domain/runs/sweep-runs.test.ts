import { beforeEach, describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { sweepStuckRuns } from '../../../../shared/domain/runs/sweep-runs.js';
import { redispatchRuns } from '../../../../local/engine/recovery.js';
import { JOURNEY_ID, RUN_CLIENT, runRecord, T0 } from './run-fixtures.js';
import { runWorld, type RunWorld } from './run-world.js';

const MINUTE = 60_000;
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * MINUTE).toISOString();

let world: RunWorld;
/** The run's journey and version, read with its seq: its read takes the version in the same request. */
const onVersion1 = { journey_id: JOURNEY_ID, version: 1 };

beforeEach(async () => {
  world = await runWorld();
  for (const run of [
    runRecord({ id: 1, seq: 4, due_at: at(-10) }),
    runRecord({ id: 2, seq: 2, status: 'waiting', due_at: at(-3) }),
    runRecord({ id: 3, seq: 7, due_at: at(59), wait: { kind: 'send', execution_id: 77 } }),
    runRecord({ id: 4, seq: 3, due_at: at(30) }),
    runRecord({ id: 5, seq: 9, status: 'completed', due_at: undefined, ended_at: at(-20) }),
  ])
    world.data.runs.set(clientKey(run.client_id, run.id), run);
});

describe('sweepStuckRuns', () => {
  it('sends each run due more than 2 minutes ago its current seq (with its hints); a run just due or later waits', async () => {
    // Act
    const result = await sweepStuckRuns({ runs: world.runs, queue: world.queue, clock: world.clock });

    // Assess
    expect(result).toEqual({ enqueued: 2, pages: 1, stoppedOnBudget: false });
    expect(world.journeyMessages()).toEqual([
      { client_id: RUN_CLIENT, run_id: 1, seq: 4, contact_id: 100, ...onVersion1 },
      { client_id: RUN_CLIENT, run_id: 2, seq: 2, contact_id: 100, ...onVersion1 },
    ]);
    expect(world.queue.batches).toBe(1);
  });

  it('pages through the index', async () => {
    // Act
    const result = await sweepStuckRuns({ runs: world.runs, queue: world.queue, clock: world.clock }, { pageSize: 1 });

    // Assess
    expect(result).toMatchObject({ enqueued: 2, pages: 2 });
  });
});

describe('local recovery after a restart (step 5)', () => {
  it('dispatches every run still due for its due time, or now when it is past: the schedules died with the process', async () => {
    // Act
    const count = await redispatchRuns(world.runs, world, world.clock.now());

    // Assess
    expect(count).toBe(4);
    expect(world.journeyMessages().map((m) => [m.run_id, m.seq])).toEqual([
      [1, 4],
      [2, 2],
      [3, 7],
    ]);
    expect(world.queue.sent.every((m) => (m.options as { delaySeconds: number }).delaySeconds === 0)).toBe(true);
    // Due in 30 minutes: beyond SQS's delay, a schedule for its time.
    expect(world.scheduler.scheduled).toEqual([
      {
        instant: at(30),
        queue: 'journey',
        message: { client_id: RUN_CLIENT, run_id: 4, seq: 3, contact_id: 100, ...onVersion1 },
        name: `run-${RUN_CLIENT}-4-3-${Date.parse(at(30))}`,
      },
    ]);
    // Run 3 waits on a send due to be looked at in 59 minutes: now, with its execution, as the wake may be lost.
    expect(world.queue.sent.find((m) => (m.message as { run_id: number }).run_id === 3)).toEqual({
      queue: 'journey',
      message: { client_id: RUN_CLIENT, run_id: 3, seq: 7, contact_id: 100, execution_id: 77, ...onVersion1 },
      options: { delaySeconds: 0 },
    });
  });
});
