import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { DynamoExecutionStore } from '../../../shared/adapters/dynamo/execution-store.js';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { TABLE_KEYS } from '../../../shared/adapters/dynamo/table-definition.js';
import { createFaultInjection } from '../../../shared/adapters/faults/fault-injection.js';
import { clock } from '../../../shared/composition/providers/clock.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { paceStore } from '../../../shared/composition/providers/pace-store.js';
import { recipientStore } from '../../../shared/composition/providers/recipient-store.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { topicStore } from '../../../shared/composition/providers/topic-store.js';
import { runBroadcastStep } from '../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import type { PacerDeps } from '../../../shared/domain/broadcasts/engine/pacer.js';
import type { EngineBroadcast } from '../../../shared/domain/broadcasts/recipient-store.js';
import { updateSubscription } from '../../../shared/domain/contacts/update-subscription.js';
import { executeWorkflow } from '../../../shared/domain/executions/execute-workflow.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import { createTopic } from '../../../shared/domain/topics/manage-topics.js';
import type { BroadcastMessage, ExecutionMessage, Queue } from '../../../shared/platform.js';
import { createTestClient } from '../support/clients.js';
import {
  addContact,
  engineContainer,
  engineDeps,
  FakeMailer,
  patchSettings,
  RecordingQueue,
  RecordingScheduler,
} from '../support/engine-components.js';

/**
 * The broadcast engine on DynamoDB Local with its real adapters: start, snapshot pages, pacer, cancel job and the
 * executor's broadcast branches, driven message by message (a queue that delivers what was sent, honouring delays),
 * so every conditional write, index entry and Query meets the real emulator.
 */

const SEGMENT = 1;

async function setup(options: { faults?: string; accountRate?: number } = {}) {
  const mailer = new FakeMailer();
  const recording = new RecordingQueue();
  const injection = options.faults ? createFaultInjection({ spec: options.faults, seed: 35 }) : undefined;
  const queue: Queue = injection ? injection.queue(recording) : recording;
  const container = engineContainer({ queue, scheduler: new RecordingScheduler(), mailer });
  // Faults below the SDK's retries, on this container's client only (installed before its first request).
  if (injection) injection.dynamo(tableOf(container).db);
  const deps = engineDeps(container);
  const engine: PacerDeps = {
    ...deps,
    ...container.resolve([recipientStore, paceStore]),
    accountRate: options.accountRate ?? 200,
  };
  const config = container.resolve([topicStore, contactStore, clock]);
  const client = await createTestClient('scale');
  const { db, tableName } = tableOf(engineContainer({}));
  const broadcastId = 1 + Math.floor(Math.random() * 1_000_000);

  /** Writes a contact and, for a segment audience, its member entry (as the membership engine leaves them). */
  async function member(fields: Record<string, unknown> = {}, inSegment = true): Promise<number> {
    const id = await addContact(deps, client.id, { email: `b-${randomUUID().slice(0, 8)}@example.com`, ...fields });
    if (inSegment) {
      const zone = typeof fields['timezone'] === 'string' ? { z: fields['timezone'] } : {};
      await db.send(
        new PutCommand({ TableName: tableName, Item: { ...keys.segmentMember(client.id, SEGMENT, id), ...zone } }),
      );
    }
    return id;
  }

  /** A scheduled broadcast head, with its live entry, as the schedule route leaves it. */
  async function scheduled(definition: Partial<EngineBroadcast['definition']> = {}): Promise<BroadcastMessage> {
    const now = new Date().toISOString();
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.broadcast(client.id, broadcastId),
          ...keys.broadcastLiveEntry(client.id, broadcastId, now),
          entity: 'broadcast',
          id: broadcastId,
          client_id: client.id,
          status: 'scheduled',
          draft_version: 1,
          definition: {
            audience: { segment_id: SEGMENT },
            category: 'marketing',
            topic_id: null,
            variants: [{ template_id: 1, subject: 'News for <%= it.contact.email %>' }],
            schedule: { mode: 'now' },
            ...definition,
          },
          created_at: now,
          updated_at: now,
        },
      }),
    );
    return { client_id: client.id, broadcast_id: broadcastId, kind: 'start', gen: 1 };
  }

  const setStatus = (status: string) =>
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.broadcast(client.id, broadcastId),
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status },
      }),
    );

  /** Messages on their way: a drive stopped by `until` leaves the rest for the next. */
  const pending: { at: number; queue: 'broadcast' | 'workflow'; message: unknown }[] = [];

  /**
   * Delivers the queue's messages as SQS would (after their delay; a step that throws comes back), until nothing is
   * left or `until` says stop. Workflow messages run the executor; broadcast messages the engine step.
   */
  async function drive(
    until: () => boolean = () => false,
    first: BroadcastMessage[] = [],
    options: { skipPace?: boolean } = {},
  ): Promise<string[]> {
    pending.push(...first.map((message) => ({ at: 0, queue: 'broadcast' as const, message })));
    const outcomes: string[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && !until()) {
      for (const s of recording.sent.splice(0)) {
        if (options.skipPace && s.queue === 'broadcast' && (s.message as BroadcastMessage).kind === 'pace') continue;
        if (s.queue === 'broadcast' || s.queue === 'workflow')
          pending.push({ at: Date.now() + s.delaySeconds * 1000, queue: s.queue, message: s.message });
      }
      if (pending.length === 0) break;
      pending.sort((a, b) => a.at - b.at);
      const wait = pending[0]!.at - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 200)));
      const ready = pending.filter((p) => p.at <= Date.now());
      pending.splice(0, pending.length, ...pending.filter((p) => p.at > Date.now()));
      await Promise.all(
        ready.map(async (p) => {
          try {
            if (p.queue === 'broadcast') outcomes.push(await runBroadcastStep(engine, p.message as BroadcastMessage));
            else {
              const m = p.message as ExecutionMessage;
              await executeWorkflow(deps, m.client_id, m.execution_id);
            }
          } catch {
            // A failed delivery comes back after its visibility timeout (compressed here).
            pending.push({ ...p, at: Date.now() + 100 });
          }
        }),
      );
    }
    return outcomes;
  }

  async function head(): Promise<EngineBroadcast | undefined> {
    return engine.recipients.head(client.id, broadcastId);
  }

  /** The recipients as the broadcast's listing holds them (16 gsi1 partitions). */
  async function recipients(): Promise<ExecutionRecord[]> {
    const shards = await Promise.all(
      Array.from({ length: keys.broadcastRecipientShards }, async (_, shard) => {
        const out = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: TABLE_KEYS.gsi1.name,
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.broadcastRecipientsPk(client.id, broadcastId, shard) },
          }),
        );
        return (out.Items ?? []) as unknown as ExecutionRecord[];
      }),
    );
    return shards.flat();
  }

  /** Recipients still waiting in the due index. */
  async function waiting(): Promise<number> {
    const counts = await Promise.all(
      Array.from({ length: 16 }, async (_, p) => {
        const out = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: TABLE_KEYS.gsi3.name,
            KeyConditionExpression: 'gsi3pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.broadcastDuePk(client.id, broadcastId, p) },
          }),
        );
        return out.Items?.length ?? 0;
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  return {
    deps,
    engine,
    config,
    client,
    mailer,
    injection,
    broadcastId,
    member,
    scheduled,
    setStatus,
    drive,
    head,
    recipients,
    waiting,
  };
}

const mailedTo = (mailer: FakeMailer) => mailer.sent.map((m) => m.to).sort();

describe('broadcast engine on DynamoDB Local', () => {
  it('sends a segment broadcast `now` to every member once, skipping the suppressed, unsubscribed and topic-opted-out with their reasons', async () => {
    // Prepare: 24 members who get it, one suppressed, one unsubscribed, one who left the topic; one non-member
    const h = await setup();
    const topic = await createTopic(h.config, h.client.id, { name: 'News', description: '', default_subscribed: true });
    const members = await Promise.all(Array.from({ length: 24 }, () => h.member()));
    const suppressed = await h.member();
    const unsubscribed = await h.member();
    const leftTopic = await h.member();
    await h.member({}, false);
    await h.deps.contacts.updateSubscription(h.client.id, suppressed, {
      is_subscribed: false,
      unsubscribe_reason: 'hard_bounce',
      at: new Date().toISOString(),
    } as never);
    await updateSubscription(h.config, h.client.id, { id: unsubscribed }, { is_subscribed: false });
    await updateSubscription(h.config, h.client.id, { id: leftTopic }, { is_subscribed: false, topic_id: topic.id });
    const start = await h.scheduled({ topic_id: topic.id });

    // Act
    await h.drive(() => false, [start]);

    // Assess: each member's e-mail once, with the broadcast's own subject
    const expected = await Promise.all(members.map(async (id) => (await h.deps.contacts.get(h.client.id, id))!.email));
    expect(mailedTo(h.mailer)).toEqual(expected.sort());
    expect(h.mailer.sent[0]!.subject).toBe(`News for ${h.mailer.sent[0]!.to}`);
    const recipients = await h.recipients();
    expect(recipients).toHaveLength(27);
    const byContact = new Map(recipients.map((r) => [r.contact_id, r]));
    expect(byContact.get(suppressed)).toMatchObject({ status: EXECUTION_STATUS.skipped, reason: 'suppressed' });
    expect(byContact.get(unsubscribed)).toMatchObject({ status: EXECUTION_STATUS.skipped, reason: 'unsubscribed' });
    expect(byContact.get(leftTopic)).toMatchObject({ status: EXECUTION_STATUS.skipped, reason: 'topic_unsubscribed' });
    expect(recipients.filter((r) => r.status === EXECUTION_STATUS.completed)).toHaveLength(24);
    expect(await h.head()).toMatchObject({ status: 'sent', snapshot: { sources: 16, total: 27 } });
    expect(await h.waiting()).toBe(0);
  });

  it('costs the send’s own requests per recipient plus a small share for the snapshot and the pacer', async () => {
    // Prepare: 196 members (two full pages a shard would be 16 × 98; this is the engine's fixed cost spread thin)
    const h = await setup();
    await Promise.all(Array.from({ length: 196 }, () => h.member()));
    const start = await h.scheduled();
    h.deps.container.requestCounter.reset();
    // Act
    await h.drive(() => false, [start]);
    // Assess: the send is 4 requests (read, load, claim + quota, record) + the quota UpdateItem; the engine's share
    // (16 shard chains, the pacer's passes) is what is left
    const byCommand = h.deps.container.requestCounter.snapshot();
    const total = Object.values(byCommand).reduce((a, b) => a + b, 0);
    console.info('broadcast requests by command', JSON.stringify(byCommand), (total / 196).toFixed(2), 'a recipient');
    expect(h.mailer.sent).toHaveLength(196);
    expect(total / 196).toBeLessThanOrEqual(6.5);
  });

  it('an all-subscribed broadcast snapshots only subscribed contacts, once each', async () => {
    const h = await setup();
    const subscribed = await Promise.all(Array.from({ length: 12 }, () => h.member({}, false)));
    const gone = await h.member({}, false);
    await updateSubscription(h.config, h.client.id, { id: gone }, { is_subscribed: false });
    await h.drive(() => false, [await h.scheduled({ audience: { all_subscribed: true } })]);
    const recipients = await h.recipients();
    expect(recipients.map((r) => r.contact_id).sort()).toEqual([...subscribed].sort());
    expect(h.mailer.sent).toHaveLength(12);
    expect((await h.head())?.status).toBe('sent');
  });

  it('paused mid-way holds the rest (released ones go back to the due index); resumed, each is sent once', async () => {
    // Prepare: 60 members at 10/s (a 6-second send)
    const h = await setup({ accountRate: 10 });
    await Promise.all(Array.from({ length: 60 }, () => h.member()));
    const start = await h.scheduled();
    // Act: pause once ~20 are out
    await h.drive(() => h.mailer.sent.length >= 20, [start]);
    await h.setStatus('paused');
    await h.drive();
    const atPause = h.mailer.sent.length;
    const deferred = (await h.recipients()).filter((r) => r.reason === 'broadcast_paused');
    await h.setStatus('sending');
    await h.drive(() => false, [{ client_id: h.client.id, broadcast_id: h.broadcastId, kind: 'pace' }]);
    // Assess
    expect(atPause).toBeLessThan(60);
    expect(deferred.length).toBeGreaterThan(0);
    expect(new Set(mailedTo(h.mailer)).size).toBe(60);
    expect(h.mailer.sent).toHaveLength(60);
    expect((await h.head())?.status).toBe('sent');
  });

  it('cancelled mid-way: sent + cancelled = the audience, and nothing is sent after the cancel', async () => {
    const h = await setup({ accountRate: 10 });
    await Promise.all(Array.from({ length: 60 }, () => h.member()));
    await h.drive(() => h.mailer.sent.length >= 15, [await h.scheduled()]);
    await h.setStatus('cancelled');
    const atCancel = h.mailer.sent.length;
    await h.drive(() => false, [{ client_id: h.client.id, broadcast_id: h.broadcastId, kind: 'cancel' }]);
    const recipients = await h.recipients();
    const sent = recipients.filter((r) => r.status === EXECUTION_STATUS.completed).length;
    const cancelled = recipients.filter(
      (r) => r.status === EXECUTION_STATUS.cancelled && r.reason === 'broadcast_cancelled',
    ).length;
    expect(sent + cancelled).toBe(60);
    expect(h.mailer.sent.length).toBe(sent);
    expect(sent - atCancel).toBeLessThanOrEqual(15);
    expect(await h.waiting()).toBe(0);
  });

  it('under injected faults (reset after write, failed SQS sends) every member still gets it exactly once', async () => {
    const h = await setup({ faults: 'dynamo:reset-after-write:0.05,sqs:send-fail:0.3' });
    const members = await Promise.all(Array.from({ length: 120 }, () => h.member()));
    const start = await h.scheduled();
    await h.drive(() => false, [start]);
    // A chain whose next message was lost is the sweep's; here the test re-sends what the sweep would, until done.
    for (let round = 0; round < 10 && (await h.head())?.status !== 'sent'; round++) {
      const { sweepBroadcasts } = await import('../../../shared/domain/broadcasts/engine/sweep-broadcasts.js');
      await sweepBroadcasts(h.engine, { everyLive: true });
      await h.drive();
    }
    expect(h.mailer.sent).toHaveLength(members.length);
    expect(new Set(mailedTo(h.mailer)).size).toBe(members.length);
    expect((await h.recipients()).length).toBe(members.length);
    expect((await h.head())?.status).toBe('sent');
    const counts = h.injection!.counts();
    expect(counts.dynamo?.total).toBeGreaterThan(0);
    expect(counts.sqs?.total).toBeGreaterThan(0);
  });

  it("local_time: each recipient is due at the time in its own zone, moved past the client's quiet hours", async () => {
    // Prepare: 4 zones; today's date where it is earliest (UTC+14), so the snapshot starts now; quiet hours 08–10
    const h = await setup();
    const zones = ['Pacific/Auckland', 'Asia/Tokyo', 'Europe/Paris', 'America/Los_Angeles'];
    const ids = await Promise.all(zones.map((timezone) => h.member({ timezone })));
    await patchSettings(h.deps, h.client.id, { quiet_hour_start: 8, quiet_hour_end: 10 });
    const date = DateTime.now().setZone('UTC+14').toISODate()!;
    const start = await h.scheduled({ schedule: { mode: 'local_time', date, time: '09:00' } });

    // Act: the snapshot only (the sends are hours away)
    const startedAt = Date.now();
    await h.drive(() => false, [start], { skipPace: true });

    // Assess: the first 09:00 of the date (or, where it has passed, of the next day), then 10:00 for the quiet hours
    const recipients = await h.recipients();
    for (const [i, zone] of zones.entries()) {
      const nine = DateTime.fromISO(`${date}T09:00`, { zone });
      const day = nine.toMillis() >= startedAt - 5_000 ? nine : nine.plus({ days: 1 });
      const expected = day.set({ hour: 10 }).toUTC().toISO();
      const recipient = recipients.find((r) => r.contact_id === ids[i]);
      expect(recipient, zone).toMatchObject({
        send_zone: zone,
        reason: 'quiet_hours',
        status: EXECUTION_STATUS.queued,
      });
      expect(new Date(recipient!.scheduled_for).toISOString(), zone).toBe(new Date(expected!).toISOString());
    }
    expect((await h.head())?.status).toBe('sending');
    expect(await h.waiting()).toBe(4);
    // Local recovery's Scan of queued executions leaves them to their pacer (dispatching them would skip the pace)
    const { db, tableName } = tableOf(h.deps.container);
    const queued = await new DynamoExecutionStore(db, tableName).scanQueued();
    expect(queued.filter((e) => e.client_id === h.client.id)).toEqual([]);
  });
});
