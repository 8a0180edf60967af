import { beforeEach, describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import type { JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import type { RunReadWants } from '../../../../shared/domain/runs/run-store.js';
import { RunMessage } from '../../../../shared/domain/runs/schemas.js';
import type { SegmentDefinition } from '../../../../shared/domain/segments/definition/types.js';
import { JOURNEY_ID, RUN_CLIENT } from '../runs/run-fixtures.js';
import { runWorld, type RunWorld, startJourney } from '../runs/run-world.js';

const MINUTE = 60_000;
const PRO = 7;
const TRIAL = 8;

/** Pro members who are not on a trial get template 1, everyone else template 2. */
const BY_PLAN: JourneyStep[] = [
  {
    id: 'plan',
    type: 'branch',
    branches: [
      {
        name: 'Pro',
        conditions: [
          { on: 'segment', segment_id: PRO, op: 'member' },
          { on: 'segment', segment_id: TRIAL, op: 'not_member' },
        ],
        next: 'pro',
      },
    ],
    otherwise: 'other',
  },
  { id: 'pro', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
  { id: 'other', type: 'send', template_id: 2, send_time: { mode: 0 }, next: null },
];

let world: RunWorld;
let wants: RunReadWants[];
const first = { client_id: RUN_CLIENT, run_id: 4242, seq: 1, contact_id: 100 };

const journeyWith = (steps: JourneyStep[]) => startJourney(world, steps);

/** The client's segments (its index) and the contact's memberships (its SEGSTATE), as the segment engine writes them. */
function segments(ids: number[], memberOf: number[]) {
  world.data.segmentIndexes.set(RUN_CLIENT, {
    version: 1,
    segments: ids.map((id) => ({ id, version: 1, definition: {} as SegmentDefinition })),
    specs: [],
    watched: [],
  });
  world.data.segmentStates.set(clientKey(RUN_CLIENT, 100), {
    sv: 1,
    members: Object.fromEntries(memberOf.map((id) => [id, 1])),
  });
}

const templateSent = () => {
  const run = world.run(4242)!;
  return Object.values(run.sends).map((s) => world.execution(s.execution_id)!.template_id);
};

beforeEach(async () => {
  world = await runWorld();
  await world.contact();
  wants = [];
  const read = world.runs.read;
  world.runs.read = (clientId, w) => {
    wants.push(w);
    return read(clientId, w);
  };
});

describe('a branch on segment membership', () => {
  it('takes the branch for a member of the one and not of the other: both segments read in one request', async () => {
    // Prepare
    await journeyWith(BY_PLAN);
    segments([PRO, TRIAL], [PRO]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ branches: { plan: 'Pro' }, step_id: 'pro' });
    expect(templateSent()).toEqual([1]);
    // The entry's message could not hint the segments: the run first, then the segments with what else is missing.
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 2, writes: 1 });
    expect(wants.map((w) => w.segments)).toEqual([undefined, { contactId: 100, segmentIds: [PRO, TRIAL] }]);
  });

  it.each<[string, number[]]>([
    ['in neither segment', []],
    ['in both', [PRO, TRIAL]],
    ['only on the trial', [TRIAL]],
  ])('takes otherwise for a contact %s', async (_, memberOf) => {
    // Prepare
    await journeyWith(BY_PLAN);
    segments([PRO, TRIAL], memberOf);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ branches: { plan: 'otherwise' }, step_id: 'other' });
    expect(templateSent()).toEqual([2]);
  });

  it('reads a contact never evaluated (no SEGSTATE) as in no segment', async () => {
    // Prepare
    await journeyWith(BY_PLAN);
    segments([PRO, TRIAL], []);
    world.data.segmentStates.delete(clientKey(RUN_CLIENT, 100));

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ branches: { plan: 'otherwise' } });
  });

  it('reads a segment deleted since as no one’s, though its purge has not yet taken the contact out', async () => {
    // Prepare: the index no longer holds PRO; the contact's state still names it.
    await journeyWith(BY_PLAN);
    segments([TRIAL], [PRO]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ branches: { plan: 'otherwise' } });
    expect(templateSent()).toEqual([2]);
  });

  it('reads no membership for a branch without a segment condition', async () => {
    // Prepare
    await journeyWith([
      {
        id: 'plan',
        type: 'branch',
        branches: [{ name: 'VIP', conditions: [{ on: 'tag', op: 'has', tag: 'vip' }], next: null }],
        otherwise: null,
      },
    ]);
    segments([PRO], [PRO]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ status: 'completed', branches: { plan: 'otherwise' } });
    expect({ reads: world.runs.reads, segments: wants.filter((w) => w.segments !== undefined) }).toEqual({
      reads: 1,
      segments: [],
    });
  });

  it('hints the segments a branch after a wait reads: the wait’s message brings them in its one read', async () => {
    // Prepare
    await journeyWith([{ id: 'pause', type: 'wait', minutes: 5, next: 'plan' }, ...BY_PLAN]);
    segments([PRO, TRIAL], [PRO]);
    await world.advance(first);
    const message = world.journeyMessages()[0]!;
    world.clock.advance(5 * MINUTE);
    world.runs.reset();
    wants = [];

    // Act
    await world.advance(message);

    // Assess
    expect(message).toEqual({ ...first, seq: 2, journey_id: JOURNEY_ID, version: 1, segment_ids: [PRO, TRIAL] });
    // The queue's handler parses the body: the hint survives it.
    expect(RunMessage.parse(message)).toEqual(message);
    expect(world.run(4242)).toMatchObject({ branches: { plan: 'Pro' } });
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 1, writes: 1 });
    expect(wants[0]!.segments).toEqual({ contactId: 100, segmentIds: [PRO, TRIAL] });
  });
});

describe('a branch on segment membership: a crash around the run’s write', () => {
  it('a worker dying before the write leaves nothing: the redelivery reads again and sends one e-mail, by the path it reads then', async () => {
    // Prepare: the first attempt reads the contact as pro and dies before its transaction.
    await journeyWith(BY_PLAN);
    segments([PRO, TRIAL], [PRO]);
    const transition = world.runs.transition;
    world.runs.transition = async () => {
      throw new Error('worker killed');
    };
    await expect(world.advance(first)).rejects.toThrow('worker killed');
    world.runs.transition = transition;
    // Meanwhile the stream takes the contact out of pro.
    segments([PRO, TRIAL], []);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ seq: 2, branches: { plan: 'otherwise' } });
    expect([...world.data.executions.values()].map((e) => e.template_id)).toEqual([2]);
  });

  it('a write whose answer was lost stands: the redelivery is stale and the branch taken is not decided again', async () => {
    // Prepare: the transaction commits (pro), its answer is lost, then the contact leaves pro.
    await journeyWith(BY_PLAN);
    segments([PRO, TRIAL], [PRO]);
    world.runs.loseNextAnswer = true;
    await expect(world.advance(first)).rejects.toThrow('socket hang up');
    segments([PRO, TRIAL], []);

    // Act
    const outcome = await world.advance(first);

    // Assess
    expect(outcome).toEqual({ kind: 'stale' });
    expect(world.run(4242)).toMatchObject({ seq: 2, branches: { plan: 'Pro' } });
    expect([...world.data.executions.values()].map((e) => e.template_id)).toEqual([1]);
  });
});
