import { describe, expect, it } from 'vitest';
import { MemoryJourneyStore } from '../../../../shared/adapters/memory/journey-store.js';
import { MemorySplitWinnerStore } from '../../../../shared/adapters/memory/split-winner-store.js';
import { MemoryStatsStore } from '../../../../shared/adapters/memory/stats-store.js';
import { validateJourney } from '../../../../shared/domain/journeys/definition/validate-journey.js';
import type { JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import { decideSplitWinners } from '../../../../shared/domain/journeys/decide-split-winners.js';
import { compileIndexEntry, withEntry } from '../../../../shared/domain/journeys/journey-index.js';
import type { JourneyRecord } from '../../../../shared/domain/journeys/journey-records.js';
import { decideSplitWinner, type SplitRule } from '../../../../shared/domain/journeys/split-winner.js';
import { definitionOf, indexedOf, JOURNEY_ID, RUN_CLIENT, T0, versionOf } from '../runs/run-fixtures.js';

const NOW = new Date(T0);
const HOUR = 3_600_000;
const rule = (fields: Partial<SplitRule['winner']> = {}): SplitRule => ({
  arms: ['a', 'b'],
  winner: { metric: 'human_opens', min_sends_per_arm: 2, ...fields },
});
/** The gauge's totals of split `ab`: sends and human opens per arm, the split begun `hoursAgo`. */
const gauge = (sent: [number, number], opens: [number, number], hoursAgo = 1) => ({
  'x_ab:sent:a': sent[0],
  'x_ab:sent:b': sent[1],
  'x_ab:human_opens:a': opens[0],
  'x_ab:human_opens:b': opens[1],
  'x_ab:since': NOW.getTime() - hoursAgo * HOUR,
});

describe('decideSplitWinner: the rule', () => {
  it('decides nothing until every arm reached the minimum of sends', () => {
    expect(decideSplitWinner(rule(), 'ab', gauge([2, 1], [2, 1]), NOW)).toBeUndefined();
  });

  it('decides nothing before min_hours since the split’s first run', () => {
    expect(decideSplitWinner(rule({ min_hours: 2 }), 'ab', gauge([5, 5], [1, 3], 1), NOW)).toBeUndefined();
    expect(decideSplitWinner(rule({ min_hours: 2 }), 'ab', gauge([5, 5], [1, 3], 2), NOW)).toMatchObject({ arm: 'b' });
  });

  it('the best rate per e-mail sent wins, not the most opens; rates and sends are kept with the time', () => {
    // a: 3 opens of 6 (0.5); b: 2 of 3 (0.6667).
    expect(decideSplitWinner(rule(), 'ab', gauge([6, 3], [3, 2]), NOW)).toEqual({
      arm: 'b',
      metric: 'human_opens',
      rates: { a: 0.5, b: 0.6667 },
      sent: { a: 6, b: 3 },
      decided_at: T0,
    });
  });

  it('on a tie the arm listed first wins', () => {
    expect(decideSplitWinner(rule(), 'ab', gauge([4, 2], [2, 1]), NOW)).toMatchObject({ arm: 'a' });
    expect(decideSplitWinner(rule(), 'ab', gauge([2, 2], [0, 0]), NOW)).toMatchObject({ arm: 'a' });
  });

  it('conversions read the converted totals', () => {
    const totals = { ...gauge([2, 2], [2, 0]), 'x_ab:converted:b': 1 };
    expect(decideSplitWinner(rule({ metric: 'conversions' }), 'ab', totals, NOW)).toMatchObject({
      arm: 'b',
      rates: { a: 0, b: 0.5 },
    });
  });
});

const STEPS: JourneyStep[] = [
  {
    id: 'ab',
    type: 'split',
    arms: [
      { name: 'a', percent: 50, next: 'mail_a' },
      { name: 'b', percent: 50, next: 'mail_b' },
    ],
    winner: { metric: 'human_opens', min_sends_per_arm: 2 },
  },
  { id: 'mail_a', type: 'send', template_id: 3, send_time: { mode: 0 }, next: null },
  { id: 'mail_b', type: 'send', template_id: 3, send_time: { mode: 0 }, next: null },
];

function world() {
  const journeys = new MemoryJourneyStore();
  const stats = new MemoryStatsStore();
  const definition = definitionOf(STEPS);
  const head = {
    client_id: RUN_CLIENT,
    id: JOURNEY_ID,
    name: 'AB',
    status: 'live',
    live_version: 1,
    draft: {},
    draft_version: 1,
    created_at: T0,
    updated_at: T0,
  } satisfies JourneyRecord as JourneyRecord;
  journeys.heads.set('head', head);
  journeys.indexes.set(RUN_CLIENT, {
    version: 3,
    journeys: [compileIndexEntry(head, versionOf(definition))],
  });
  const store = new MemorySplitWinnerStore(journeys, stats);
  const setGauge = (values: Record<string, number>) =>
    stats.journeyRows.set(`${RUN_CLIENT}#NOW#J${JOURNEY_ID}`, values);
  const deps = { splitWinners: store, clock: { now: () => NOW } };
  return { journeys, store, head, setGauge, deps, definition };
}

describe('decideSplitWinners: decided once, written once', () => {
  it('the index compiles the live version’s winner rules', () => {
    const { journeys } = world();
    expect(journeys.indexes.get(RUN_CLIENT)!.journeys[0]!.split_rules).toEqual({ ab: rule() });
  });

  it('writes the winner on the index entry (raising its version) and the journey, then never again', async () => {
    // Prepare
    const w = world();
    w.setGauge(gauge([2, 2], [0, 1]));

    // Act
    const first = await decideSplitWinners(w.deps, RUN_CLIENT, JOURNEY_ID);
    w.setGauge(gauge([9, 9], [9, 0]));
    const again = await decideSplitWinners(w.deps, RUN_CLIENT, JOURNEY_ID);

    // Assess
    expect(first).toEqual({ ab: expect.objectContaining({ arm: 'b' }) });
    expect(again).toEqual({});
    const index = w.journeys.indexes.get(RUN_CLIENT)!;
    expect(index.version).toBe(4);
    expect(index.journeys[0]!.split_winners).toEqual({ ab: expect.objectContaining({ arm: 'b', decided_at: T0 }) });
    expect(w.head.split_winners).toEqual(index.journeys[0]!.split_winners);
    expect(w.store.writes).toHaveLength(1);
  });

  it('writes nothing while the rule is not met', async () => {
    const w = world();
    w.setGauge(gauge([2, 1], [1, 1]));
    expect(await decideSplitWinners(w.deps, RUN_CLIENT, JOURNEY_ID)).toEqual({});
    expect(w.store.writes).toEqual([]);
  });

  it('reads again when a publish moved the index between its read and its write', async () => {
    // Prepare: the first write finds the index one version on (as after a publish).
    const w = world();
    w.setGauge(gauge([2, 2], [1, 0]));
    const write = w.store.writeWinners.bind(w.store);
    let raced = false;
    w.store.writeWinners = async (change) => {
      if (!raced) {
        raced = true;
        w.journeys.indexes.get(RUN_CLIENT)!.version += 1;
      }
      return write(change);
    };

    // Act
    const decided = await decideSplitWinners(w.deps, RUN_CLIENT, JOURNEY_ID);

    // Assess
    expect(decided).toEqual({ ab: expect.objectContaining({ arm: 'a' }) });
    expect(w.store.writes).toHaveLength(1);
    expect(w.store.writes[0]!.readVersion).toBe(4);
  });

  it('a new version keeps a winner its split still decides on the same terms, and drops one it changed', () => {
    const w = world();
    const winner = { arm: 'b', metric: 'human_opens' as const, rates: {}, sent: {}, decided_at: T0 };
    const old = { ...indexedOf(w.definition), split_winners: { ab: winner } };
    const same = compileIndexEntry(w.head, versionOf(w.definition, 2));
    expect(withEntry([old], same)[0]!.split_winners).toEqual({ ab: winner });
    const renamed = definitionOf([
      {
        ...(STEPS[0] as Extract<JourneyStep, { type: 'split' }>),
        arms: [
          { name: 'a', percent: 50, next: 'mail_a' },
          { name: 'c', percent: 50, next: 'mail_b' },
        ],
      },
      ...STEPS.slice(1),
    ]);
    expect(withEntry([old], compileIndexEntry(w.head, versionOf(renamed, 2)))[0]!.split_winners).toBeUndefined();
  });
});

describe('validateJourney: a split with a winner', () => {
  it('accepts one whose every arm leads to a send', () => {
    expect(validateJourney(definitionOf(STEPS)).issues).toEqual([]);
  });

  it('refuses an arm that reaches no send, and a conversions winner without exit events, at their paths', () => {
    const steps: JourneyStep[] = [
      {
        ...(STEPS[0] as Extract<JourneyStep, { type: 'split' }>),
        winner: { metric: 'conversions', min_sends_per_arm: 1 },
      },
      { id: 'mail_a', type: 'send', template_id: 3, send_time: { mode: 0 }, next: null },
      { id: 'mail_b', type: 'wait', minutes: 5, next: null },
    ];
    expect(validateJourney(definitionOf(steps)).issues).toEqual([
      { path: 'steps.0.arms.1.next', condition: 'graph', error: expect.stringContaining('Must lead to a send step') },
      { path: 'steps.0.winner.metric', condition: 'graph', error: expect.stringContaining('exit_events') },
    ]);
  });

  it('states the bounds of the rule', () => {
    const steps = [
      { ...STEPS[0], winner: { metric: 'views', min_sends_per_arm: 0, min_hours: 2161 } },
      ...STEPS.slice(1),
    ];
    const paths = validateJourney(definitionOf(steps as JourneyStep[])).issues.map((i) => [i.path, i.condition]);
    expect(paths).toEqual(
      expect.arrayContaining([
        ['steps.0.winner.metric', 'enum'],
        ['steps.0.winner.min_sends_per_arm', 'min'],
        ['steps.0.winner.min_hours', 'max'],
      ]),
    );
  });
});
