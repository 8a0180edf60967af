import { describe, expect, it } from 'vitest';
import { decideWinner, winnerOf } from '../../../../../shared/domain/broadcasts/engine/decide-winner.js';
import { pacePass } from '../../../../../shared/domain/broadcasts/engine/pacer.js';
import { runBroadcastStep } from '../../../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import { sweepBroadcasts } from '../../../../../shared/domain/broadcasts/engine/sweep-broadcasts.js';
import type { BroadcastWinner } from '../../../../../shared/domain/broadcasts/recipient-store.js';
import type { BroadcastMessage } from '../../../../../shared/platform.js';
import { BROADCAST, CLIENT, engineDeps, scheduledBroadcast, startMessage, T0 } from './engine-fixtures.js';

/** One journey minute lasts a second: the test's hour is a minute of its clock. */
const MINUTE_MS = 1_000;
const HOUR_MS = 60 * MINUTE_MS;
const AB = { test_percent: 20, metric: 'human_opens' as const, decide_after_hours: 1 };
const decide: BroadcastMessage = { client_id: CLIENT, broadcast_id: BROADCAST, kind: 'decide' };

/** A 2-variant A/B broadcast to `n` members, started and snapshotted; its decide and first pace message kept apart. */
async function started(n: number) {
  const h = engineDeps();
  h.deps.journeyTime = { minuteMs: MINUTE_MS };
  h.recipients.members.set(`${CLIENT}:1`, new Map(Array.from({ length: n }, (_, i) => [i + 1, undefined])));
  h.recipients.put(
    scheduledBroadcast({
      variants: [{ template_id: 1001 }, { template_id: 1002, subject: 'Subject B' }],
      ab: AB,
    }),
  );
  const pending: BroadcastMessage[] = [startMessage()];
  const kept: BroadcastMessage[] = [];
  while (pending.length > 0) {
    await runBroadcastStep(h.deps, pending.shift()!);
    for (const m of h.queue.takeBroadcast()) (m.kind === 'pace' || m.kind === 'decide' ? kept : pending).push(m);
  }
  const rows = [...h.recipients.data.executions.values()];
  return { ...h, kept, rows };
}

/** Pace passes as their messages come, the executor claiming what each released, until none comes or `stop`. */
async function pace(h: Awaited<ReturnType<typeof started>>, first: BroadcastMessage, stop?: string) {
  const outcomes: string[] = [];
  let message: BroadcastMessage | undefined = first;
  for (let i = 0; i < 40 && message; i++) {
    const outcome = await pacePass(h.deps, message);
    outcomes.push(outcome);
    for (const r of h.queue.workflow()) h.recipients.claim(CLIENT, r.execution_id);
    if (outcome === stop) break;
    h.clock.advance(10_000);
    message = h.queue.takeBroadcast().find((m) => m.kind === 'pace');
  }
  return outcomes;
}

describe('an A/B test of a broadcast', () => {
  it('snapshots the test share with each variant and its content, and the rest as holdouts in partitions of their own', async () => {
    const h = await started(1000);
    const shards = h.recipients.heads.values().next().value!.shards!;
    const tested = h.rows.filter((e) => !e.holdout);
    const held = h.rows.filter((e) => e.holdout);
    expect(h.rows).toHaveLength(1000);
    expect(tested.length + held.length).toBe(1000);
    expect(Math.abs(tested.length - 200)).toBeLessThan(60);
    for (const e of tested) {
      expect(e.ab_test).toBe(true);
      expect(e.template_id).toBe(e.variant === 0 ? 1001 : 1002);
      expect(e.subject_override).toBe(e.variant === 0 ? undefined : 'Subject B');
    }
    for (const e of held)
      expect([e.template_id, e.variant, e.ab_test, e.subject_override]).toEqual([0, undefined, undefined, undefined]);
    for (const [key, entry] of h.recipients.due) {
      const e = h.recipients.data.executions.get(key)!;
      expect(entry.partition >= shards).toBe(e.holdout === true);
    }
    // The decide step is due an hour (of the test's) after the start.
    expect(h.kept.map((m) => m.kind).sort()).toEqual(['decide', 'pace']);
    expect(h.queue.sent).toHaveLength(0);
  });

  it('sends the test share only, decides by human opens per delivered at its time, then sends the holdouts the winner', async () => {
    const h = await started(600);
    const testIds = new Set(h.rows.filter((e) => !e.holdout).map((e) => e.id));
    const heldIds = new Set(h.rows.filter((e) => e.holdout).map((e) => e.id));
    // The pacer releases the test share and then waits for the winner.
    const outcomes = await pace(h, h.kept.find((m) => m.kind === 'pace')!, 'awaiting_winner');
    expect(outcomes.at(-1)).toBe('awaiting_winner');
    const first = h.queue.workflow().map((r) => r.execution_id);
    expect(new Set(first)).toEqual(testIds);
    // Variant B (1) opened more per delivered, though fewer delivered.
    h.recipients.variantCounts.set(`${CLIENT}\u0000${BROADCAST}`, [
      { delivered: 60, opened: 6, clicked: 9 },
      { delivered: 50, opened: 10, clicked: 1 },
    ]);
    // Early: sent back for its time.
    h.queue.takeBroadcast();
    expect(await decideWinner(h.deps, decide)).toBe('not_due');
    expect(h.queue.takeBroadcast()).toEqual([decide]);
    h.clock.at = new Date(T0.getTime() + HOUR_MS);
    expect(await decideWinner(h.deps, decide)).toBe('decided');
    const head = (await h.recipients.head(CLIENT, BROADCAST))!;
    expect(head.winner).toEqual({
      variant: 1,
      metric: 'human_opens',
      rates: [0.1, 0.2],
      delivered: [60, 50],
      decided_at: new Date(T0.getTime() + HOUR_MS).toISOString(),
    });
    // A duplicate decide changes nothing, and only starts the pacer again.
    h.recipients.variantCounts.set(`${CLIENT}\u0000${BROADCAST}`, [{ delivered: 1, opened: 1 }, {}]);
    const restart = h.queue.takeBroadcast();
    expect(restart).toEqual([{ client_id: CLIENT, broadcast_id: BROADCAST, kind: 'pace' }]);
    expect(await decideWinner(h.deps, decide)).toBe('decided_before');
    expect((await h.recipients.head(CLIENT, BROADCAST))!.winner!.variant).toBe(1);
    h.queue.takeBroadcast();
    // The holdouts go out, each once, and the broadcast ends.
    const after = await pace(h, restart[0]!);
    expect(after.at(-1)).toBe('sent');
    const released = h.queue.workflow().map((r) => r.execution_id);
    expect(released).toHaveLength(600);
    expect(new Set(released.slice(first.length))).toEqual(heldIds);
  });

  it('a decide that died after its write, or before it, is brought back by the sweep', async () => {
    // Prepare: the test share out, the pacer waiting for the winner
    const h = await started(300);
    await pace(h, h.kept.find((m) => m.kind === 'pace')!, 'awaiting_winner');
    h.queue.takeBroadcast();
    // Lost before its write (its worker died with the message): 2 minutes past its time the sweep sends it again.
    h.clock.at = new Date(T0.getTime() + HOUR_MS + 60_000);
    expect(h.queue.takeBroadcast()).toEqual([]);
    expect((await sweepBroadcasts(h.deps)).resent).toBe(0);
    h.clock.at = new Date(T0.getTime() + HOUR_MS + 2 * 60_000 + 1);
    await sweepBroadcasts(h.deps);
    expect(h.queue.takeBroadcast()).toContainEqual(decide);
    // Dies after its write, before the pacer's message (an injected fault).
    const write = h.recipients.writeWinner.bind(h.recipients);
    h.recipients.writeWinner = async (head, winner: BroadcastWinner) => {
      await write(head, winner);
      throw new Error('dynamo: connection reset after the write (injected)');
    };
    await expect(decideWinner(h.deps, decide)).rejects.toThrow('injected');
    expect(h.queue.takeBroadcast()).toEqual([]);
    // Redelivered: the winner stands, the pacer starts.
    expect(await decideWinner(h.deps, decide)).toBe('decided_before');
    expect(h.queue.takeBroadcast()).toEqual([{ client_id: CLIENT, broadcast_id: BROADCAST, kind: 'pace' }]);
    // Or never redelivered: the sweep sees the pacer silent past its time and no decide due any more.
    h.clock.advance(4 * 60_000);
    await sweepBroadcasts(h.deps);
    const swept = h.queue.takeBroadcast();
    expect(swept).toEqual([{ client_id: CLIENT, broadcast_id: BROADCAST, kind: 'pace' }]);
    const outcomes = await pace(h, swept[0]!);
    expect(outcomes.at(-1)).toBe('sent');
    expect(new Set(h.queue.workflow().map((r) => r.execution_id)).size).toBe(300);
  });

  it('a cancelled broadcast decides nothing, and its holdouts are ended with the rest', async () => {
    const h = await started(200);
    h.recipients.heads.values().next().value!.status = 'cancelled';
    h.clock.at = new Date(T0.getTime() + HOUR_MS);
    expect(await decideWinner(h.deps, decide)).toBe('stopped');
    const pending: BroadcastMessage[] = [{ client_id: CLIENT, broadcast_id: BROADCAST, kind: 'cancel' }];
    while (pending.length > 0) {
      await runBroadcastStep(h.deps, pending.shift()!);
      pending.push(...h.queue.takeBroadcast().filter((m) => m.kind === 'cancel'));
    }
    expect(h.recipients.due.size).toBe(0);
    expect([...h.recipients.data.executions.values()].every((e) => e.reason === 'broadcast_cancelled')).toBe(true);
  });
});

describe('winnerOf', () => {
  it('reads human clicks per delivered; a tie and no data go to the first variant', () => {
    const now = new Date(T0);
    expect(
      winnerOf(
        'human_clicks',
        [
          { delivered: 10, clicked: 1 },
          { delivered: 10, clicked: 2 },
        ],
        2,
        now,
      ).variant,
    ).toBe(1);
    expect(
      winnerOf(
        'human_clicks',
        [
          { delivered: 10, clicked: 2 },
          { delivered: 5, clicked: 1 },
        ],
        2,
        now,
      ).variant,
    ).toBe(0);
    expect(winnerOf('human_opens', [], 3, now)).toMatchObject({ variant: 0, rates: [0, 0, 0], delivered: [0, 0, 0] });
    expect(
      winnerOf(
        'conversions',
        [
          { delivered: 10, opened: 9, converted: 1 },
          { delivered: 10, opened: 1, converted: 3 },
        ],
        2,
        now,
      ),
    ).toMatchObject({ variant: 1, rates: [0.1, 0.3] });
  });
});
