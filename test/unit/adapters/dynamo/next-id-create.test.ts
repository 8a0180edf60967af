import { describe, expect, it } from 'vitest';
import { createWithNextId, LOST } from '../../../../shared/adapters/dynamo/next-id-create.js';

/** A counter shared by concurrent creates: each attempt wins only when the id it read is still the next one. */
function counter(limit = Number.POSITIVE_INFINITY) {
  const state = { next: 1, made: [] as number[] };
  const create = () =>
    createWithNextId({
      what: 'test create',
      read: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return state.next;
      },
      idOf: (id) => id,
      attempt: async (id) => {
        if (state.made.length >= limit) return 'limit' as const;
        await new Promise((resolve) => setImmediate(resolve));
        if (state.next !== id) return LOST;
        state.next = id + 1;
        state.made.push(id);
        return id;
      },
    });
  return { state, create };
}

describe('createWithNextId', () => {
  it('lets every one of many concurrent creates finish: a loss to another create costs no attempt', async () => {
    const { state, create } = counter();
    const ids = await Promise.all(Array.from({ length: 20 }, create));
    expect(new Set(ids).size).toBe(20);
    expect(state.made.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('answers the limit to the creates beyond it, however many lost before', async () => {
    const { create } = counter(5);
    const answers = await Promise.all(Array.from({ length: 8 }, create));
    expect(answers.filter((a) => a === 'limit')).toHaveLength(3);
    expect(answers.filter((a) => typeof a === 'number')).toHaveLength(5);
  });

  it('gives up after five losses in a row while the counter does not move', async () => {
    let reads = 0;
    await expect(
      createWithNextId({
        what: 'stalled create',
        read: async () => {
          reads += 1;
          return 7;
        },
        idOf: (id) => id,
        attempt: async () => LOST,
      }),
    ).rejects.toThrow(/stalled create lost to concurrent writes 5 times/);
    expect(reads).toBe(6);
  });
});
