import { describe, expect, it } from 'vitest';
import { signedCursor } from '../../../../shared/domain/pagination/signed-cursor.js';

const SECRET = 's'.repeat(32);
const list = signedCursor('list-a:v1:', 120);

describe('signedCursor', () => {
  it('reads back what it signed', () => {
    expect(list.read(SECRET, list.sign(SECRET, { c: 7, a: 42 }))).toEqual({ c: 7, a: 42 });
  });

  it.each([
    ['another secret', (c: string) => list.read('t'.repeat(32), c)],
    ['another list (label)', (c: string) => signedCursor('list-b:v1:', 120).read(SECRET, c)],
    [
      'a changed payload',
      (c: string) => list.read(SECRET, `${Buffer.from('{"c":8,"a":42}').toString('base64url')}.${c.split('.')[1]}`),
    ],
    ['a changed signature', (c: string) => list.read(SECRET, `${c.slice(0, -2)}AA`)],
    ['a payload longer than the list takes', (c: string) => signedCursor('list-a:v1:', 4).read(SECRET, c)],
  ])('refuses a cursor read with %s', (_what, read) => {
    expect(read(list.sign(SECRET, { c: 7, a: 42 }))).toBeUndefined();
  });

  it.each(['', 'x', 'a.b', '%%%.%%%', `${Buffer.from('[1]').toString('base64url')}.${'A'.repeat(43)}`])(
    'refuses %j without throwing',
    (cursor) => {
      expect(list.read(SECRET, cursor)).toBeUndefined();
    },
  );

  it('refuses a correctly signed payload that is not an object', () => {
    expect(list.read(SECRET, list.sign(SECRET, [1, 2]))).toBeUndefined();
  });
});
