import { describe, expect, it } from 'vitest';
import { BROADCAST_BUDGET, budgetsOf, type BroadcastsBenchRun } from '../../../../scripts/bench/broadcasts.js';
import { segmentBudgetsOf, type SegmentsBenchRun } from '../../../../scripts/bench/segments.js';

const broadcastRun = (over: Partial<BroadcastsBenchRun> = {}): BroadcastsBenchRun => ({
  date: '2026-11-29',
  contacts: 10_000,
  importS: 1,
  sesRate: 50,
  share: 0.8,
  planRate: 100,
  pace: 40,
  snapshotS: 1,
  sentS: 3,
  rate: 38,
  requests: { total: 1000, perRecipient: 10, byCommand: {}, unscoped: 100 },
  queues: [],
  engineRequestsPerRecipient: 0.2,
  executorRequestsPerEmail: 5,
  exactlyOnce: {
    emails: 10_000,
    missing: 0,
    duplicates: 0,
    recipients: 10_000,
    byStatus: { '3': 10_000 },
    head: 'sent',
    totalsSent: 10_000,
  },
  budgets: [],
  ...over,
});

const failing = (budgets: { name: string; pass: boolean }[]) => budgets.filter((b) => !b.pass).map((b) => b.name);

describe('the broadcasts part fails on', () => {
  it('nothing when every figure is within its budget', () => {
    expect(failing(budgetsOf(broadcastRun()))).toEqual([]);
  });

  it("not the engine's own budget below 10,000 recipients (its pages are not full there)", () => {
    const small = broadcastRun({ contacts: 200, engineRequestsPerRecipient: 2 });
    small.exactlyOnce = { ...small.exactlyOnce, emails: 200, recipients: 200, byStatus: { '3': 200 } };
    expect(failing(budgetsOf(small))).toEqual([]);
  });

  it.each([
    [
      'requests over the budget',
      { requests: { total: 0, perRecipient: BROADCAST_BUDGET.total + 0.01, byCommand: {}, unscoped: 0 } },
      'all work',
    ],
    ['the engine over its share', { engineRequestsPerRecipient: BROADCAST_BUDGET.engine + 0.01 }, 'broadcast engine'],
    ['the executor over its budget', { executorRequestsPerEmail: BROADCAST_BUDGET.executor + 0.01 }, 'executor'],
    ['a rate under 0.9 × the pace', { rate: 35.9 }, 'send rate'],
  ] as const)('%s', (_, over, name) => {
    expect(failing(budgetsOf(broadcastRun(over as Partial<BroadcastsBenchRun>)))).toEqual([
      expect.stringContaining(name),
    ]);
  });

  it.each([
    ['a contact mailed twice', { emails: 10_001, duplicates: 1 }],
    ['a contact missing', { emails: 9_999, missing: 1 }],
    ['a recipient still queued', { byStatus: { '3': 9_999, '1': 1 } }],
    ['the head not sent', { head: 'sending' }],
  ])('%s', (_, exactly) => {
    const run = broadcastRun();
    run.exactlyOnce = { ...run.exactlyOnce, ...exactly };
    expect(failing(budgetsOf(run))).toEqual([expect.stringContaining('exactly once')]);
  });
});

const segmentsRun = (over: Partial<SegmentsBenchRun['burst']> = {}): SegmentsBenchRun => ({
  date: '2026-11-29',
  burst: {
    contacts: 100,
    changes: 100,
    watchedChanges: 80,
    writeS: 1,
    settledS: 2,
    evaluated: 80,
    evaluatedWithRetries: 80,
    messages: 4,
    dynamo: 8,
    byCommand: {},
    lag: { n: 100, p50: 100, p95: 200, max: 300 },
    counts: { 'plan = pro': { expected: 40, got: 40 } },
    ...over,
  },
  backfill: { contacts: 1000, importS: 1, readyS: 2, pages: 11, dynamo: 40, byCommand: {}, count: 250, expected: 250 },
  budgets: [],
});

describe('the segments part fails on', () => {
  it('nothing when each watched change evaluated its own contact once', () => {
    expect(failing(segmentBudgetsOf(segmentsRun()))).toEqual([]);
  });

  it.each([
    ['an unwatched change evaluated', { evaluated: 81 }, 'contacts evaluated'],
    ['a changed contact not evaluated', { evaluated: 79 }, 'contacts evaluated'],
    ['a count wrong', { counts: { 'plan = pro': { expected: 40, got: 39 } } }, 'contacts evaluated'],
    ['evaluation requests over the budget', { dynamo: 80 }, 'evaluate-segments'],
  ] as const)('%s', (_, over, name) => {
    expect(failing(segmentBudgetsOf(segmentsRun(over)))).toEqual([expect.stringContaining(name)]);
  });

  it('a backfill over its budget or with a wrong count', () => {
    const run = segmentsRun();
    run.backfill = { ...run.backfill, dynamo: 8 * 11 + 1, count: 249 };
    expect(failing(segmentBudgetsOf(run))).toEqual([
      expect.stringContaining('backfill requests per page'),
      expect.stringContaining('backfill count'),
    ]);
  });
});
