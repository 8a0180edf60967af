import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { recipientItem } from '../../../shared/adapters/dynamo/recipient-item.js';
import { TABLE_KEYS } from '../../../shared/adapters/dynamo/table-definition.js';
import { createFaultInjection } from '../../../shared/adapters/faults/fault-injection.js';
import { paceStore } from '../../../shared/composition/providers/pace-store.js';
import { recipientStore } from '../../../shared/composition/providers/recipient-store.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import type { PacerDeps } from '../../../shared/domain/broadcasts/engine/pacer.js';
import { runBroadcastStep } from '../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import type { BroadcastMessage, Queue } from '../../../shared/platform.js';
import { createTestClient } from '../support/clients.js';
import { engineContainer, engineDeps, RecordingQueue, RecordingScheduler } from '../support/engine-components.js';

/**
 * Resend to non-openers and retry failed on DynamoDB Local with their real adapters, under injected faults (writes
 * applied and answered by a connection reset; SQS send failures are asked for too, though these steps' sends drew none): a parent's recipients are written as its send left
 * them (completed with or without a counted human open, failed, skipped; some contacts retried), then the child's
 * snapshot and the retry job are driven message by message (a failed step comes back), and each ends exactly once.
 */
const PARENT_RECIPIENTS = 260;

async function setup() {
  const recording = new RecordingQueue();
  const injection = createFaultInjection({ spec: 'dynamo:reset-after-write:0.08,sqs:send-fail:0.3', seed: 36 });
  const queue: Queue = injection.queue(recording);
  const container = engineContainer({ queue, scheduler: new RecordingScheduler() });
  injection.dynamo(tableOf(container).db);
  const engine: PacerDeps = {
    ...engineDeps(container),
    ...container.resolve([recipientStore, paceStore]),
    accountRate: 200,
  };
  const client = await createTestClient('scale');
  const { db, tableName } = tableOf(engineContainer({}));
  const parentId = 1 + Math.floor(Math.random() * 1_000_000);
  const put = (Item: Record<string, unknown>) => db.send(new PutCommand({ TableName: tableName, Item }));

  /** Broadcast steps until none is left (pace messages dropped: the pacer is another test's). */
  async function drive(first: BroadcastMessage[]): Promise<void> {
    const pending = [...first];
    const deadline = Date.now() + 90_000;
    while (pending.length > 0 && Date.now() < deadline) {
      const batch = pending.splice(0, 8);
      const outcomes = await Promise.allSettled(batch.map((m) => runBroadcastStep(engine, m)));
      outcomes.forEach((o, i) => {
        if (o.status === 'rejected') pending.push(batch[i]!);
      });
      for (const s of recording.sent.splice(0))
        if (s.queue === 'broadcast' && (s.message as BroadcastMessage).kind !== 'pace')
          pending.push(s.message as BroadcastMessage);
    }
    expect(pending, 'every step ended').toHaveLength(0);
  }

  async function listing(broadcastId: number): Promise<ExecutionRecord[]> {
    const shards = await Promise.all(
      Array.from({ length: keys.broadcastRecipientShards }, async (_, shard) => {
        const items: ExecutionRecord[] = [];
        let start: Record<string, unknown> | undefined;
        do {
          const out = await db.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: TABLE_KEYS.gsi1.name,
              KeyConditionExpression: 'gsi1pk = :pk',
              ExpressionAttributeValues: { ':pk': keys.broadcastRecipientsPk(client.id, broadcastId, shard) },
              ...(start ? { ExclusiveStartKey: start } : {}),
            }),
          );
          items.push(...((out.Items ?? []) as unknown as ExecutionRecord[]));
          start = out.LastEvaluatedKey;
        } while (start);
        return items;
      }),
    );
    return shards.flat();
  }

  /** The parent as its send left it: contact c's fate by c mod 6; contacts ≡ 5 (mod 6) were retried once. */
  async function seedParent(): Promise<{ resend: number[]; failed: number[] }> {
    const at = new Date().toISOString();
    const resend: number[] = [];
    const failed: number[] = [];
    let id = Date.now() * 1000;
    const execution = (contactId: number, status: number, sent: boolean): ExecutionRecord => ({
      id: id++,
      client_id: client.id,
      workflow_id: 0,
      contact_id: contactId,
      event_id: null,
      status: status as ExecutionRecord['status'],
      is_test: false,
      attempt: 1,
      template_id: 1,
      priority_score: 30,
      critical: false,
      cap_day: at.slice(0, 10),
      scheduled_for: at,
      send_zone: 'UTC',
      broadcast_id: parentId,
      variant: 0,
      category: 'marketing',
      ...(sent ? { sent_email_id: randomUUID() } : {}),
      created_at: at,
      updated_at: at,
    });
    const writes: Promise<unknown>[] = [];
    for (let c = 1; c <= PARENT_RECIPIENTS; c++) {
      const fate = c % 6;
      const entries: ExecutionRecord[] = [];
      if (fate === 0) entries.push(execution(c, EXECUTION_STATUS.failed, false));
      else if (fate === 1) entries.push(execution(c, EXECUTION_STATUS.skipped, false));
      else if (fate === 5) {
        entries.push(execution(c, EXECUTION_STATUS.retried, false), execution(c, EXECUTION_STATUS.completed, true));
      } else entries.push(execution(c, EXECUTION_STATUS.completed, true));
      const sent = entries.find((e) => e.sent_email_id);
      // A person opened the e-mails of contacts ≡ 2; those ≡ 3 were opened by machines only (no marker).
      if (fate === 2) writes.push(put({ ...keys.engagementMarker(client.id, sent!.sent_email_id!, 'open') }));
      if (fate === 0) failed.push(c);
      if (fate === 3 || fate === 4 || fate === 5) resend.push(c);
      for (const e of entries) writes.push(put(recipientItem(e, 2)));
    }
    const head = (id: number, fields: Record<string, unknown>) =>
      put({
        ...keys.broadcast(client.id, id),
        entity: 'broadcast',
        id,
        client_id: client.id,
        draft_version: 1,
        definition: {
          audience: { all_subscribed: true },
          category: 'marketing',
          topic_id: null,
          variants: [{ template_id: 1, subject: 'Missed it?' }],
          schedule: { mode: 'now' },
        },
        created_at: at,
        updated_at: at,
        ...fields,
      });
    writes.push(
      head(parentId, {
        status: 'sent',
        started_at: at,
        completed_at: at,
        shards: 2,
        snapshot: { sources: 8, done: [0, 1, 2, 3, 4, 5, 6, 7], total: PARENT_RECIPIENTS },
      }),
      head(parentId + 1, {
        status: 'scheduled',
        kind: 'resend',
        parent_id: parentId,
        ...keys.broadcastLiveEntry(client.id, parentId + 1, at),
      }),
    );
    await Promise.all(writes);
    return { resend, failed };
  }

  return { engine, client, parentId, drive, listing, seedParent, injection };
}

describe('resend and retry failed on DynamoDB Local under injected faults', () => {
  it('the resend snapshot writes each non-opener once; the retry job retries each failed recipient once', async () => {
    // Prepare
    const h = await setup();
    const { resend, failed } = await h.seedParent();
    const childId = h.parentId + 1;

    // Act
    await h.drive([{ client_id: h.client.id, broadcast_id: childId, kind: 'start', gen: 1 }]);
    const retryJob = Array.from({ length: 16 }, (_, shard) => ({
      client_id: h.client.id,
      broadcast_id: h.parentId,
      kind: 'retry' as const,
      shard,
    }));
    await h.drive(retryJob);
    await h.drive(retryJob);

    // Assess
    const child = await h.listing(childId);
    expect(child.map((e) => e.contact_id).sort((a, b) => a - b)).toEqual(resend);
    expect(child.every((e) => e.status === EXECUTION_STATUS.queued && e.subject_override === 'Missed it?')).toBe(true);
    expect((await h.engine.recipients.head(h.client.id, childId))?.snapshot?.total).toBe(resend.length);
    const parent = await h.listing(h.parentId);
    const fresh = parent.filter((e) => e.retried_from !== undefined);
    expect(fresh.map((e) => e.contact_id).sort((a, b) => a - b)).toEqual(failed);
    expect(fresh.every((e) => e.status === EXECUTION_STATUS.queued && e.attempt === 2)).toBe(true);
    expect(parent.filter((e) => e.status === EXECUTION_STATUS.failed)).toHaveLength(0);
    const head = await h.engine.recipients.head(h.client.id, h.parentId);
    expect(head).toMatchObject({ status: 'sending', retried: failed.length });
    const counts = h.injection.counts();
    expect(counts.dynamo?.total).toBeGreaterThan(0);
  }, 150_000);
});
