import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('node:crypto');
  vi.resetModules();
});

describe('distinctIdsAt', () => {
  it('draws again an id already drawn at the same instant (the random bits repeated)', async () => {
    // Prepare: the random part repeats 7, 7, then 9
    const draws = [7, 7, 9];
    vi.doMock('node:crypto', async (original) => ({
      ...(await original<typeof import('node:crypto')>()),
      randomInt: () => draws.shift() ?? 11,
    }));
    const { distinctIdsAt, timeOrderedId } = await import('../../../../shared/domain/ids/time-ordered-id.js');
    const now = new Date('2026-11-28T16:00:00.000Z');

    // Act
    const draw = distinctIdsAt(now);
    const ids = [draw(), draw()];

    // Assess: two ids of the same millisecond, not the same id twice
    expect(new Set(ids).size).toBe(2);
    expect(ids.map((id) => Math.floor(id / 4096))).toEqual([
      Math.floor(timeOrderedId(now) / 4096),
      Math.floor(timeOrderedId(now) / 4096),
    ]);
  });
});
