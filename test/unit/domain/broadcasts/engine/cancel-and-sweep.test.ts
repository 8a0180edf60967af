import { describe, expect, it } from 'vitest';
import { cancelRecipients } from '../../../../../shared/domain/broadcasts/engine/cancel-recipients.js';
import { runBroadcastStep } from '../../../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import { sweepBroadcasts } from '../../../../../shared/domain/broadcasts/engine/sweep-broadcasts.js';
import { EXECUTION_STATUS } from '../../../../../shared/domain/executions/execution-record.js';
import type { BroadcastMessage } from '../../../../../shared/platform.js';
import { BROADCAST, CLIENT, engineDeps, scheduledBroadcast, startMessage, T0 } from './engine-fixtures.js';

const headOf = (h: ReturnType<typeof engineDeps>) => [...h.recipients.heads.values()][0]!;

/** Runs the broadcast's own messages until none is left but pace messages (returned). */
async function drain(h: ReturnType<typeof engineDeps>, first: BroadcastMessage[]): Promise<BroadcastMessage[]> {
  const pending = [...first];
  const paces: BroadcastMessage[] = [];
  while (pending.length > 0) {
    await runBroadcastStep(h.deps, pending.shift()!);
    for (const m of h.queue.takeBroadcast()) (m.kind === 'pace' ? paces : pending).push(m);
  }
  return paces;
}

function withMembers(n: number) {
  const h = engineDeps();
  h.recipients.members.set(`${CLIENT}:1`, new Map(Array.from({ length: n }, (_, i) => [i + 1, undefined])));
  h.recipients.put(scheduledBroadcast());
  return h;
}

describe('cancelRecipients', () => {
  it('ends every waiting recipient broadcast_cancelled, page after page, and leaves the live index', async () => {
    // Prepare: 300 waiting, the broadcast cancelled
    const h = withMembers(300);
    await drain(h, [startMessage()]);
    headOf(h).status = 'cancelled';
    // Act
    await drain(h, [{ client_id: CLIENT, broadcast_id: BROADCAST, kind: 'cancel' }]);
    // Assess
    const recipients = [...h.recipients.data.executions.values()];
    expect(recipients).toHaveLength(300);
    expect(recipients.every((e) => e.status === EXECUTION_STATUS.cancelled && e.reason === 'broadcast_cancelled')).toBe(
      true,
    );
    expect(h.recipients.due.size).toBe(0);
    expect(h.recipients.live.size).toBe(0);
  });

  it('leaves a claimed recipient to its worker, and does nothing for a broadcast not cancelled', async () => {
    const h = withMembers(2);
    await drain(h, [startMessage()]);
    const [claimed] = [...h.recipients.data.executions.values()];
    h.recipients.claim(CLIENT, claimed!.id);
    expect(await cancelRecipients(h.deps, { client_id: CLIENT, broadcast_id: BROADCAST, kind: 'cancel' })).toBe(
      'stopped',
    );
    headOf(h).status = 'cancelled';
    await cancelRecipients(h.deps, { client_id: CLIENT, broadcast_id: BROADCAST, kind: 'cancel' });
    expect(h.recipients.data.executions.get(`${CLIENT}\u0000${claimed!.id}`)?.status ?? claimed!.status).toBe(
      EXECUTION_STATUS.queued,
    );
  });

  it('stops a snapshot page after a cancel: nothing is written behind the cancel job', async () => {
    const h = withMembers(300);
    await runBroadcastStep(h.deps, startMessage());
    const pages = h.queue.takeBroadcast();
    headOf(h).status = 'cancelled';
    for (const page of pages) expect(await runBroadcastStep(h.deps, page)).toBe('stopped');
    expect(h.recipients.data.executions.size).toBe(0);
  });
});

describe('sweepBroadcasts', () => {
  it('sends a lost start, snapshot shard and pacer their messages again, after 2 minutes of silence only', async () => {
    // Prepare: a `now` broadcast scheduled at T0 whose start message was lost
    const h = withMembers(5);
    h.recipients.live.set([...h.recipients.live.keys()][0]!, T0.toISOString());
    // Act / Assess: right away nothing is lost yet; 3 minutes on, its start is
    expect(await sweepBroadcasts(h.deps)).toEqual({ resent: 0 });
    h.clock.advance(3 * 60_000);
    expect(await sweepBroadcasts(h.deps)).toEqual({ resent: 1 });
    expect(h.queue.takeBroadcast()).toEqual([startMessage()]);

    // A start that ran, whose 16 shard messages were all lost: each shard is resent once it is 2 minutes quiet
    await runBroadcastStep(h.deps, startMessage());
    h.queue.takeBroadcast();
    expect(await sweepBroadcasts(h.deps)).toEqual({ resent: 0 });
    h.clock.advance(2 * 60_000 + 1);
    expect(await sweepBroadcasts(h.deps)).toEqual({ resent: 16 });
    const paces = await drain(h, h.queue.takeBroadcast());

    // The pacer's first message lost too
    expect(paces).toHaveLength(1);
    h.clock.advance(2 * 60_000 + 1);
    expect(await sweepBroadcasts(h.deps)).toEqual({ resent: 1 });
    expect(h.queue.takeBroadcast()).toEqual([{ client_id: CLIENT, broadcast_id: BROADCAST, kind: 'pace' }]);
  });

  it('at the local start, restarts every live broadcast at once and schedules a future start for its time', async () => {
    const h = engineDeps();
    h.recipients.put(
      { ...scheduledBroadcast({ schedule: { mode: 'at', send_at: '2026-01-15T12:00:00.000Z' } }) },
      '2026-01-15T12:00:00.000Z',
    );
    expect(await sweepBroadcasts(h.deps, { everyLive: true })).toEqual({ resent: 1 });
    expect(h.scheduler.scheduled.map((s) => [s.instant.toISOString(), s.message])).toEqual([
      ['2026-01-15T12:00:00.000Z', startMessage()],
    ]);
  });
});
