import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalScheduler } from '../../../local/engine/local-scheduler.js';
import type { Queue } from '../../../shared/platform.js';

const sent: { queue: string; message: unknown }[] = [];
const queue = {
  send: async (name: string, message: unknown) => void sent.push({ queue: name, message }),
} as unknown as Queue;

beforeEach(() => {
  vi.useFakeTimers();
  sent.length = 0;
});
afterEach(() => vi.useRealTimers());

describe('LocalScheduler', () => {
  it('delivers a schedule at its instant, once per name', async () => {
    const scheduler = new LocalScheduler(queue, () => Date.now());
    const at = new Date(Date.now() + 60_000);
    await scheduler.scheduleAt(at, 'workflow', { client_id: 1, execution_id: 2 }, 'exec-1-2');
    await scheduler.scheduleAt(at, 'workflow', { client_id: 1, execution_id: 2 }, 'exec-1-2');

    await vi.advanceTimersByTimeAsync(60_000);

    expect(sent).toEqual([{ queue: 'workflow', message: { client_id: 1, execution_id: 2 } }]);
    expect(scheduler.pending).toBe(0);
  });

  it('cancels a schedule before it runs; an unknown name is no error', async () => {
    const scheduler = new LocalScheduler(queue, () => Date.now());
    await scheduler.scheduleAt(
      new Date(Date.now() + 60_000),
      'workflow',
      { client_id: 1, execution_id: 3 },
      'exec-1-3',
    );

    await scheduler.cancel('exec-1-3');
    await scheduler.cancel('exec-1-404');
    await vi.advanceTimersByTimeAsync(120_000);

    expect(sent).toEqual([]);
    expect(scheduler.pending).toBe(0);
  });
});
