import { describe, expect, it } from 'vitest';
import {
  journeyBudgets,
  journeysMarkdown,
  type JourneysBenchRun,
  type WorkFigures,
} from '../../../../scripts/bench/journeys.js';

const row = (work: string, fn: string, over: Partial<WorkFigures> = {}): WorkFigures => ({
  work,
  fn,
  deliveries: 100,
  redeliveries: 0,
  dynamo: 2,
  byCommand: { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 },
  sqs: 1,
  schedules: 0,
  ses: 0,
  maxDynamo: 2,
  maxMessages: 1,
  maxSes: 0,
  ...over,
});

/** Figures as the bench measured them once every budget held (means below the maxima). */
const rows = (): WorkFigures[] => [
  row('event entering the journey', 'process-events', { dynamo: 4, maxDynamo: 4 }),
  row('transition: the entry into wait_for_event', 'advance-runs'),
  row('event matching a waiting run', 'process-events', { dynamo: 4, maxDynamo: 4 }),
  row('a timeout its run no longer waits for: stale', 'advance-runs', { dynamo: 1, maxDynamo: 1, maxMessages: 0 }),
  row("the send step's e-mail", 'execute-workflow', { dynamo: 4.42, maxDynamo: 5, ses: 0.85, maxSes: 1 }),
  row("the reminders' SES status notifications", 'ses-status', { dynamo: 2.12, maxDynamo: 7 }),
];

const withRow = (work: string, over: Partial<WorkFigures>) =>
  rows().map((r) => (r.work === work ? { ...r, ...over } : r));

const failing = (figures: WorkFigures[]) =>
  journeyBudgets({ rows: figures })
    .filter((b) => !b.pass)
    .map((b) => b.name);

describe('the journeys part fails on', () => {
  it('nothing when every run of every function is within its budget (ses-status has none here)', () => {
    // Act
    const budgets = journeyBudgets({ rows: rows() });

    // Assess
    expect(budgets.map((b) => [b.measured, b.limit, b.pass])).toEqual([
      ['2 + 1', '≤ 2 + 1', true],
      ['4 + 1', '≤ 5 + 1', true],
      ['5 + 1', '≤ 5 + 1', true],
    ]);
  });

  it.each([
    [
      'a transition whose costliest run read three times (a cold version cache), its mean under 2',
      withRow('transition: the entry into wait_for_event', { dynamo: 2.07, maxDynamo: 3 }),
      'step transition',
    ],
    [
      'a transition that sent two messages',
      withRow('transition: the entry into wait_for_event', { maxMessages: 2 }),
      'step transition',
    ],
    [
      'a stale run of advance-runs over its budget',
      withRow('a timeout its run no longer waits for: stale', { maxDynamo: 3 }),
      'step transition',
    ],
    ['an event over processing’s 5 requests', withRow('event matching a waiting run', { maxDynamo: 6 }), 'an event'],
    ['an event that sent two messages', withRow('event entering the journey', { maxMessages: 2 }), 'an event'],
    ['a send over 5 DynamoDB requests', withRow("the send step's e-mail", { maxDynamo: 6 }), 'e-mail'],
    ['a send that called SES twice', withRow("the send step's e-mail", { maxSes: 2 }), 'e-mail'],
  ])('%s', (_, figures, name) => {
    expect(failing(figures)).toEqual([expect.stringContaining(name)]);
  });

  it('a function that ran no message: nothing measured is no pass', () => {
    // Act
    const [transition] = journeyBudgets({ rows: rows().filter((r) => r.fn !== 'advance-runs') });

    // Assess
    expect(transition).toMatchObject({ pass: false, measured: 'no delivery' });
    expect(transition!.detail).toContain('advance-runs');
  });

  it('names the row over its budget with its requests by command', () => {
    // Act
    const [transition] = journeyBudgets({
      rows: withRow('transition: the entry into wait_for_event', {
        dynamo: 2.07,
        maxDynamo: 3,
        byCommand: { BatchGetItemCommand: 1.07, TransactWriteItemsCommand: 1 },
      }),
    });

    // Assess
    expect(transition).toMatchObject({ measured: '3 + 1', pass: false });
    expect(transition!.detail).toBe(
      'transition: the entry into wait_for_event: 3 + 1 SQS/Scheduler (mean BatchGetItem 1.07, TransactWriteItems 1)',
    );
  });
});

describe('the journeys section', () => {
  it('writes a PASS or FAIL line for each budget', () => {
    // Prepare
    const run: JourneysBenchRun = {
      date: '2026-11-29',
      contacts: 200,
      rows: withRow('transition: the entry into wait_for_event', { maxDynamo: 3 }),
      perEmail: { emails: 100, deliveries: 117, dynamo: 517, sqs: 117 },
    };

    // Act
    const text = journeysMarkdown(run);

    // Assess
    expect(text).toContain(
      '| a step transition: DynamoDB requests + SQS/Scheduler calls, most in one run of advance-runs | 3 + 1 | ≤ 2 + 1 | FAIL (',
    );
    expect(text).toMatch(/\| an event entering, resuming or meeting no run: .* \| 4 \+ 1 \| ≤ 5 \+ 1 \| PASS \|/);
    expect(text).toMatch(/\| the send step's e-mail: .* \| 5 \+ 1 \| ≤ 5 \+ 1 \| PASS \|/);
  });
});
