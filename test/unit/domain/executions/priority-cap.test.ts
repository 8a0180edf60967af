import { describe, expect, it } from 'vitest';
import type { SendContext } from '../../../../shared/domain/executions/delivery-store.js';
import { yieldsToHigherPriority } from '../../../../shared/domain/executions/execute-workflow.js';
import type { ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';

const execution = (id: number, priority: number) => ({ id, priority_score: priority }) as ExecutionRecord;
const context = (sent: number, pending: Record<string, number>) =>
  ({ cap: { sent, pending } }) as unknown as SendContext;

describe('yieldsToHigherPriority (the contact daily cap when e-mails compete)', () => {
  it.each([
    ['sends when no one else waits and a slot is left', execution(5, 40), context(0, { 5: 40 }), 1, false],
    ['yields the last slot to a waiting higher priority', execution(5, 40), context(0, { 5: 40, 9: 90 }), 1, true],
    ['keeps the slot against a lower priority', execution(9, 90), context(0, { 5: 40, 9: 90 }), 1, false],
    ['breaks a tie by the earlier id', execution(9, 60), context(0, { 5: 60, 9: 60 }), 1, true],
    ['wins a tie with the earlier id', execution(5, 60), context(0, { 5: 60, 9: 60 }), 1, false],
    [
      'sends when enough slots are left for every higher priority',
      execution(5, 40),
      context(1, { 5: 40, 9: 90 }),
      3,
      false,
    ],
    ['yields when the day is already full', execution(5, 100), context(3, {}), 3, true],
  ])('%s', (_name, exec, ctx, limit, expected) => {
    expect(yieldsToHigherPriority(exec, ctx, limit)).toBe(expected);
  });

  it('never yields when the cap does not apply (critical bypass)', () => {
    expect(yieldsToHigherPriority(execution(5, 0), context(99, { 9: 100 }), undefined)).toBe(false);
  });
});
