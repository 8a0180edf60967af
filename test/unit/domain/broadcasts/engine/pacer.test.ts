import { describe, expect, it } from 'vitest';
import { pacePass } from '../../../../../shared/domain/broadcasts/engine/pacer.js';
import { runBroadcastStep } from '../../../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import type { BroadcastMessage } from '../../../../../shared/platform.js';
import { BROADCAST, CLIENT, engineDeps, scheduledBroadcast, startMessage, T0 } from './engine-fixtures.js';

/** A broadcast to `n` members snapshotted (its steps run until the pacer's first message). */
async function snapshotted(n: number, options: { plan?: string; accountRate?: number; schedule?: never } = {}) {
  const h = engineDeps({ accountRate: options.accountRate ?? 40 });
  if (options.plan) h.recipients.plan = options.plan;
  h.recipients.members.set(`${CLIENT}:1`, new Map(Array.from({ length: n }, (_, i) => [i + 1, undefined])));
  h.recipients.put(scheduledBroadcast());
  const pending: BroadcastMessage[] = [startMessage()];
  const paces: BroadcastMessage[] = [];
  while (pending.length > 0) {
    await runBroadcastStep(h.deps, pending.shift()!);
    for (const m of h.queue.takeBroadcast()) (m.kind === 'pace' ? paces : pending).push(m);
  }
  return { ...h, paces };
}

const paceOf = (gen?: number): BroadcastMessage => ({
  client_id: CLIENT,
  broadcast_id: BROADCAST,
  kind: 'pace',
  ...(gen !== undefined ? { gen } : {}),
});

describe('pacePass', () => {
  it('starts once the snapshot is done and releases the rate × horizon earliest, spread over the reserved span', async () => {
    // Prepare: scale plan 100/s, account 40/s → horizon 2 s, 200 a pass, spread at 40/s
    const h = await snapshotted(500);
    expect(h.paces).toEqual([paceOf()]);

    // Act
    const outcome = await pacePass(h.deps, h.paces[0]!);

    // Assess
    expect(outcome).toBe('released');
    const released = h.queue.workflow();
    expect(released).toHaveLength(200);
    expect(new Set(released.map((r) => r.execution_id)).size).toBe(200);
    // 200 at 40/s: 5 s of span, the last one ~5 s out
    expect(Math.max(...released.map((r) => r.delaySeconds))).toBe(5);
    expect(released.filter((r) => r.delaySeconds === 0).length).toBeLessThanOrEqual(40);
    expect(h.pace.clocks.get('all')).toBe(h.clock.now().getTime() + 5_000);
    // The next pass comes before the span ends, naming the chain it continues
    const next = h.queue.takeBroadcast();
    expect(next).toEqual([paceOf(1)]);
  });

  it('holds a free client to 1 e-mail a second whatever the account allows', async () => {
    const h = await snapshotted(100, { plan: 'free' });
    await pacePass(h.deps, h.paces[0]!);
    const released = h.queue.workflow();
    expect(released).toHaveLength(15);
    expect(released.map((r) => r.delaySeconds)).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });

  it('releases each recipient once across passes, and calls the broadcast sent once nothing waits', async () => {
    // Prepare
    const h = await snapshotted(450);
    let message: BroadcastMessage | undefined = h.paces[0];
    const outcomes: string[] = [];
    // Act: passes as their messages come; the executor claims what was released
    for (let i = 0; i < 20 && message; i++) {
      outcomes.push(await pacePass(h.deps, message));
      for (const r of h.queue.workflow()) h.recipients.claim(CLIENT, r.execution_id);
      h.clock.advance(10_000);
      message = h.queue.takeBroadcast()[0];
    }
    // Assess
    const released = h.queue.workflow().map((r) => r.execution_id);
    expect(released).toHaveLength(450);
    expect(new Set(released).size).toBe(450);
    expect(outcomes.at(-1)).toBe('sent');
    expect((await h.recipients.head(CLIENT, BROADCAST))?.status).toBe('sent');
  });

  it('stops a message of a replaced chain, and a paused broadcast', async () => {
    const h = await snapshotted(10);
    await pacePass(h.deps, h.paces[0]!);
    expect(await pacePass(h.deps, paceOf(0))).toBe('stale');
    Object.assign([...h.recipients.heads.values()][0]!, { status: 'paused' });
    expect(await pacePass(h.deps, paceOf(1))).toBe('stopped');
  });

  it('releases again, after 5 minutes, a recipient released but never claimed (its message was lost)', async () => {
    // Prepare: 3 recipients released, one never claimed
    const h = await snapshotted(3);
    await pacePass(h.deps, h.paces[0]!);
    const [lost, ...claimed] = h.queue.workflow().map((r) => r.execution_id);
    for (const id of claimed) h.recipients.claim(CLIENT, id);
    let message = h.queue.takeBroadcast()[0];
    h.queue.sent.length = 0;
    // Act: passes every 2 minutes
    for (let i = 0; i < 8 && message; i++) {
      h.clock.advance(120_000);
      await pacePass(h.deps, message);
      message = h.queue.takeBroadcast()[0];
      if (h.queue.workflow().length > 0) break;
    }
    // Assess: not before 5 minutes (it may still be on its way), and only it
    expect(h.queue.workflow().map((r) => r.execution_id)).toEqual([lost]);
    expect(h.clock.now().getTime() - T0.getTime()).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it('a restart (a pace naming no chain) reads every due partition from the start', async () => {
    const h = await snapshotted(3);
    await pacePass(h.deps, h.paces[0]!);
    h.queue.sent.length = 0;
    expect(await pacePass(h.deps, paceOf())).toBe('released');
    expect(h.queue.workflow()).toHaveLength(3);
    // The old chain's next message finds the chain taken over
    expect(await pacePass(h.deps, paceOf(1))).toBe('stale');
  });
});
