import { describe, expect, it } from 'vitest';
import { MAX_PAGED_ITEMS, pageWindowProblem } from '../../../../shared/domain/pagination/bounded-page.js';
import { positionCursor } from '../../../../shared/domain/pagination/position-cursor.js';

const SECRET = 'a'.repeat(64);
const cursors = positionCursor<number>('test-list:v1:', (v): v is number => typeof v === 'number');

describe('positionCursor', () => {
  it('gives back the page and position it was signed with, for the same client and scope', () => {
    const cursor = cursors.sign(SECRET, 7, 'scope', { page: 3, position: 1042 });

    expect(cursors.read(SECRET, cursor, 7, 'scope')).toEqual({ page: 3, position: 1042 });
  });

  it.each([
    ['another client', (c: string) => cursors.read(SECRET, c, 8, 'scope')],
    ['other filters', (c: string) => cursors.read(SECRET, c, 7, 'other')],
    ['another secret', (c: string) => cursors.read('b'.repeat(64), c, 7, 'scope')],
    [
      'another list',
      (c: string) =>
        positionCursor<number>('other-list:v1:', (v): v is number => typeof v === 'number').read(SECRET, c, 7, 'scope'),
    ],
    [
      'a moved position',
      (c: string) =>
        cursors.read(
          SECRET,
          `${Buffer.from(JSON.stringify({ c: 7, s: 'scope', p: 2, k: 1 })).toString('base64url')}.${c.split('.')[1]}`,
          7,
          'scope',
        ),
    ],
    ['garbage', () => cursors.read(SECRET, 'not a cursor', 7, 'scope')],
  ])('refuses a cursor read with %s', (_what, read) => {
    const cursor = cursors.sign(SECRET, 7, 'scope', { page: 2, position: 1042 });

    expect(read(cursor)).toBeUndefined();
  });

  it('refuses a position its list does not recognise and a page below 2', () => {
    const strings = positionCursor<string>('test-list:v1:', (v): v is string => typeof v === 'string');

    expect(strings.read(SECRET, cursors.sign(SECRET, 7, 's', { page: 2, position: 5 }), 7, 's')).toBeUndefined();
    expect(cursors.read(SECRET, cursors.sign(SECRET, 7, 's', { page: 1, position: 5 }), 7, 's')).toBeUndefined();
  });
});

describe('pageWindowProblem', () => {
  it.each([
    [1, 100, undefined],
    [10, 100, undefined],
    [MAX_PAGED_ITEMS, 1, undefined],
    [11, 100, 'Must be at most 10 with per_page 100 (page × per_page ≤ 1000); follow next_cursor beyond'],
    [51, 20, 'Must be at most 50 with per_page 20 (page × per_page ≤ 1000); follow next_cursor beyond'],
  ])('page %i with per_page %i → %s', (page, perPage, problem) => {
    expect(pageWindowProblem(page, perPage)).toBe(problem);
  });
});
