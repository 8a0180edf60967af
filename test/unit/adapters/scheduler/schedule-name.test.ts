import { describe, expect, it } from 'vitest';
import { scheduleName } from '../../../../shared/adapters/scheduler/schedule-name.js';

const ALLOWED = /^[0-9a-zA-Z._-]{1,64}$/;

describe('scheduleName', () => {
  it.each(['exec-7-42', 'a', 'x.y_z-1', 'e'.repeat(64)])('keeps the valid name %s as it is', (name) => {
    // Act
    const result = scheduleName(name);
    // Assess
    expect(result).toBe(name);
  });

  it.each(['exec#7#42', 'client 7/exec 42', 'é', '', 'e'.repeat(65), `${'x'.repeat(100)}#1`])(
    'turns %j into a name Scheduler accepts',
    (name) => {
      // Act
      const result = scheduleName(name);
      // Assess
      expect(result).toMatch(ALLOWED);
    },
  );

  it('gives the same name every time, so a repeat is recognised as the same schedule', () => {
    // Act
    const first = scheduleName('exec#7#42');
    const second = scheduleName('exec#7#42');
    // Assess
    expect(first).toBe(second);
  });

  it.each([
    ['exec#7', 'exec/7'],
    ['exec-7', 'exec#7'],
    [`${'x'.repeat(70)}1`, `${'x'.repeat(70)}2`],
  ])('keeps %j and %j apart, so neither is taken for the other', (a, b) => {
    // Act
    const names = [scheduleName(a), scheduleName(b)];
    // Assess
    expect(names[0]).not.toBe(names[1]);
  });
});
