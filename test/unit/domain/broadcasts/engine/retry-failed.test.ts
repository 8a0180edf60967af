import { describe, expect, it } from 'vitest';
import type { MemoryRecipientStore } from '../../../../../shared/adapters/memory/recipient-store.js';
import { runBroadcastStep } from '../../../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../../shared/domain/executions/execution-record.js';
import type { BroadcastMessage } from '../../../../../shared/platform.js';
import { BROADCAST, CLIENT, engineDeps, scheduledBroadcast, T0 } from './engine-fixtures.js';

let nextId = 5_000_000;
function recipient(contactId: number, status: number): ExecutionRecord {
  const at = T0.toISOString();
  return {
    id: nextId++,
    client_id: CLIENT,
    workflow_id: 0,
    contact_id: contactId,
    event_id: null,
    status: status as ExecutionRecord['status'],
    ...(status === EXECUTION_STATUS.failed ? { reason: 'ses_rejected', processed_at: at } : {}),
    is_test: false,
    attempt: 1,
    template_id: 1001,
    priority_score: 30,
    critical: false,
    cap_day: '2026-01-15',
    scheduled_for: at,
    send_zone: 'UTC',
    broadcast_id: BROADCAST,
    variant: 0,
    created_at: at,
    updated_at: at,
  };
}

/** A sent broadcast of `n` recipients, every `failEvery`-th failed (SES refused it). */
function seed(recipients: MemoryRecipientStore, n: number, failEvery: number): number[] {
  const failed: number[] = [];
  for (let c = 1; c <= n; c++) {
    const e = recipient(c, c % failEvery === 0 ? EXECUTION_STATUS.failed : EXECUTION_STATUS.completed);
    if (e.status === EXECUTION_STATUS.failed) failed.push(e.id);
    recipients.data.executions.set(`${CLIENT}\u0000${e.id}`, e);
  }
  recipients.put({
    ...scheduledBroadcast(),
    status: 'sent',
    started_at: T0.toISOString(),
    shards: 2,
    snapshot: { sources: 16, done: Array.from({ length: 16 }, (_, s) => s), total: n },
  });
  return failed;
}

/** Runs the job's 16 chains (and any duplicate of each message) until no retry page is left. */
async function runRetryJob(
  deps: ReturnType<typeof engineDeps>['deps'],
  queue: ReturnType<typeof engineDeps>['queue'],
  duplicate: (m: BroadcastMessage) => boolean = () => false,
): Promise<BroadcastMessage[]> {
  const pending: BroadcastMessage[] = Array.from({ length: 16 }, (_, shard) => ({
    client_id: CLIENT,
    broadcast_id: BROADCAST,
    kind: 'retry' as const,
    shard,
  }));
  const others: BroadcastMessage[] = [];
  while (pending.length > 0) {
    const message = pending.shift()!;
    const batch = duplicate(message) ? [message, message] : [message];
    await Promise.all(batch.map((m) => runBroadcastStep(deps, m)));
    for (const next of queue.takeBroadcast()) (next.kind === 'retry' ? pending : others).push(next);
  }
  return others;
}

const retriedFrom = (recipients: MemoryRecipientStore) =>
  [...recipients.data.executions.values()].filter((e) => e.retried_from !== undefined);

describe('retry failed: only the failed recipients are sent again, once', () => {
  it('moves each failed one to retried with one new queued recipient, reopens the sent broadcast and restarts its pacer', async () => {
    // Prepare: 400 recipients (pages of 49 entries over 16 shards), every 7th failed.
    const { deps, queue, recipients } = engineDeps();
    const failed = seed(recipients, 400, 7);

    // Act: every message delivered twice at once, as SQS may.
    const others = await runRetryJob(deps, queue, () => true);

    // Assess
    const fresh = retriedFrom(recipients);
    expect(fresh.map((e) => e.retried_from).sort()).toEqual([...failed].sort());
    for (const e of fresh) {
      expect(e).toMatchObject({ status: EXECUTION_STATUS.queued, attempt: 2, broadcast_id: BROADCAST });
      expect(e.reason).toBeUndefined();
      expect(recipients.due.has(`${CLIENT}\u0000${e.id}`)).toBe(true);
    }
    for (const id of failed)
      expect(recipients.data.executions.get(`${CLIENT}\u0000${id}`)?.status).toBe(EXECUTION_STATUS.retried);
    const head = await recipients.head(CLIENT, BROADCAST);
    expect(head).toMatchObject({ status: 'sending', retried: failed.length });
    expect(others.some((m) => m.kind === 'pace')).toBe(true);
  });

  it('a second retry finds them retried and sends nothing more; a paused broadcast keeps its pause', async () => {
    // Prepare
    const { deps, queue, recipients } = engineDeps();
    const failed = seed(recipients, 120, 5);
    await runRetryJob(deps, queue);
    const head = await recipients.head(CLIENT, BROADCAST);
    recipients.heads.set(`${CLIENT}\u0000${BROADCAST}`, { ...head!, status: 'paused' });

    // Act
    const others = await runRetryJob(deps, queue);

    // Assess
    expect(retriedFrom(recipients)).toHaveLength(failed.length);
    expect((await recipients.head(CLIENT, BROADCAST))?.status).toBe('paused');
    expect(others.filter((m) => m.kind === 'pace')).toHaveLength(0);
  });

  it('the pacer does not call the broadcast sent when a retry page wrote after it read the head', async () => {
    // Prepare: a sending broadcast whose pacer read the head, then a retry page lands.
    const { recipients } = engineDeps();
    seed(recipients, 10, 2);
    const stored = recipients.heads.get(`${CLIENT}\u0000${BROADCAST}`)!;
    stored.status = 'sending';
    const readByPacer = await recipients.head(CLIENT, BROADCAST);
    const original = [...recipients.data.executions.values()].find((e) => e.status === EXECUTION_STATUS.failed)!;
    await recipients.retryPage(readByPacer!, [{ original, next: { ...original, id: 9_999_999, status: 1 } }], 'x');

    // Act
    const finished = await recipients.finishSending(readByPacer!, T0.toISOString());

    // Assess
    expect(finished).toBe(false);
    expect((await recipients.head(CLIENT, BROADCAST))?.status).toBe('sending');
  });
});
