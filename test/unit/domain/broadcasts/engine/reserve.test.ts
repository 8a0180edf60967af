import { describe, expect, it } from 'vitest';
import { MemoryPaceStore } from '../../../../../shared/adapters/memory/pace-store.js';
import {
  horizonMsOf,
  passSizeOf,
  placeBlock,
  reserve,
} from '../../../../../shared/domain/broadcasts/engine/reserve.js';

const NOW = 1_000_000;
const rates = { client: 100, account: 40 };

describe('horizon and pass size', () => {
  it.each([
    [1, 15_000, 15],
    [5, 15_000, 75],
    [25, 8_000, 200],
    [100, 2_000, 200],
    [1_000, 2_000, 2_000],
  ])('at %i/s: T = %i ms, %i recipients a pass', (rate, horizon, size) => {
    expect(horizonMsOf(rate)).toBe(horizon);
    expect(passSizeOf(rate)).toBe(size);
  });
});

describe('placeBlock', () => {
  it('starts an idle block now and spreads it at the slower rate', () => {
    expect(placeBlock(40, rates, NOW, {})).toEqual({
      start: NOW,
      spanMs: 1_000,
      clientTo: NOW + 1_000,
      accountTo: NOW + 1_000,
    });
  });

  it('starts after the later of the two clocks', () => {
    expect(placeBlock(10, { client: 10, account: 40 }, NOW, { client: NOW + 500, account: NOW + 2_000 })).toEqual({
      start: NOW + 2_000,
      spanMs: 1_000,
      clientTo: NOW + 3_000,
      accountTo: NOW + 2_250,
    });
  });
});

describe('reserve (GCRA on two clocks)', () => {
  it('takes two writes when both clocks are idle', async () => {
    // Prepare
    const store = new MemoryPaceStore();
    // Act
    const r = await reserve(store, 7, 40, rates, NOW, 5_000);
    // Assess
    expect(r).toEqual({ kind: 'reserved', start: NOW, spanMs: 1_000 });
    expect(store.clocks.get(7)).toBe(NOW + 1_000);
    expect(store.clocks.get('all')).toBe(NOW + 1_000);
    expect(store.writes).toBe(2);
  });

  it('places a block after a busy account clock and moves both clocks from what they hold', async () => {
    // Prepare
    const store = new MemoryPaceStore();
    store.clocks.set('all', NOW + 3_000);
    // Act
    const r = await reserve(store, 7, 40, rates, NOW, 5_000);
    // Assess
    expect(r).toEqual({ kind: 'reserved', start: NOW + 3_000, spanMs: 1_000 });
    expect(store.clocks.get(7)).toBe(NOW + 4_000);
    expect(store.clocks.get('all')).toBe(NOW + 4_000);
    expect(store.writes).toBeLessThanOrEqual(4);
  });

  it('takes nothing when the block would start beyond the horizon, and gives back what it wrote', async () => {
    // Prepare
    const store = new MemoryPaceStore();
    store.clocks.set('all', NOW + 20_000);
    // Act
    const r = await reserve(store, 7, 40, rates, NOW, 5_000);
    // Assess
    expect(r).toEqual({ kind: 'later', at: NOW + 15_000 });
    expect(store.clocks.get(7) ?? NOW).toBeLessThanOrEqual(NOW);
    expect(store.clocks.get('all')).toBe(NOW + 20_000);
  });

  it('keeps two clients on one account within the account rate: their spans never overlap on it', async () => {
    // Prepare
    const store = new MemoryPaceStore();
    const spans: [number, number][] = [];
    // Act: both clients reserve blocks of 40 over 10 s of passes, interleaved
    for (let t = 0; t < 10_000; t += 500) {
      for (const client of [1, 2]) {
        const r = await reserve(store, client, 40, rates, NOW + t, 5_000);
        if (r.kind === 'reserved') spans.push([r.start, r.start + 1_000]);
      }
    }
    // Assess: the account's reservations are back to back, 40 sends a second in all
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    const sends = spans.filter(([start]) => start < NOW + 10_000).length * 40;
    expect(sends).toBeLessThanOrEqual(40 * 10 + 40);
    expect(sends).toBeGreaterThanOrEqual(40 * 10 - 40);
  });

  it('holds a slow client to its own rate on an idle account', async () => {
    const store = new MemoryPaceStore();
    const a = await reserve(store, 3, 15, { client: 1, account: 40 }, NOW, 15_000);
    const b = await reserve(store, 3, 15, { client: 1, account: 40 }, NOW + 1_000, 15_000);
    expect(a).toEqual({ kind: 'reserved', start: NOW, spanMs: 15_000 });
    expect(b).toEqual({ kind: 'reserved', start: NOW + 15_000, spanMs: 15_000 });
  });
});
