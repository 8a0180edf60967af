import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { clock as clockPort } from '../../../shared/composition/providers/clock.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { queue as queuePort } from '../../../shared/composition/providers/queue.js';
import { runStore } from '../../../shared/composition/providers/run-store.js';
import { scheduler as schedulerPort } from '../../../shared/composition/providers/scheduler.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { eventProcessingDeps } from '../../../shared/domain/events/create-event.js';
import { ingestEvent } from '../../../shared/domain/events/ingest-event.js';
import { processEvent } from '../../../shared/domain/events/process-event.js';
import type { ProcessingStore } from '../../../shared/domain/events/processing-store.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import type { JourneyDefinition } from '../../../shared/domain/journeys/definition/types.js';
import type { IndexedJourney } from '../../../shared/domain/journeys/journey-records.js';
import { advanceRun } from '../../../shared/domain/runs/advance-run.js';
import { keyHashOf } from '../../../shared/domain/runs/match-waits.js';
import type { RunRecord } from '../../../shared/domain/runs/run-record.js';
import type { RunMessage } from '../../../shared/platform.js';
import { createTestClient } from '../support/clients.js';
import {
  addContact,
  engineContainer,
  engineDeps,
  RecordingQueue,
  RecordingScheduler,
  type EngineDeps,
} from '../support/engine-components.js';

const START = Date.parse('2031-03-04T10:00:00.000Z');
const MINUTE = 60_000;
const JOURNEY = 1000;

const definition: JourneyDefinition = {
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 60,
      on_event: null,
      on_timeout: 'cool_down',
    },
    { id: 'cool_down', type: 'wait', minutes: 5, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};

/**
 * The event side of journeys on DynamoDB Local, with the engine's real adapters: what an entry and a resolution cost,
 * and the race decided by DynamoDB's conditions (the journey index and version written as a publish leaves them).
 */
async function setup() {
  let now = START;
  const clock = { now: () => new Date(now) };
  const queue = new RecordingQueue();
  const scheduler = new RecordingScheduler();
  const container = engineContainer({ queue, scheduler, clock });
  const deps = engineDeps(container);
  const advanceDeps = container.resolve([runStore, contactStore, clockPort, queuePort, schedulerPort]);
  const client = await createTestClient();
  const { db, tableName } = tableOf(container);
  const indexed: IndexedJourney = {
    id: JOURNEY,
    name: 'Cart',
    status: 'live',
    live_version: 1,
    trigger: definition.trigger,
    entry: definition.entry,
    settings: definition.settings,
    awaited_events: ['checkout_completed'],
    templates_in_use: [],
  };
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.journeyIndex(client.id), version: 1, journeys: [indexed] },
    }),
  );
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.journeyVersion(client.id, JOURNEY, 1),
        client_id: client.id,
        journey_id: JOURNEY,
        version: 1,
        definition,
        moves: {},
        published_at: new Date(START).toISOString(),
      },
    }),
  );
  const email = `cart-${randomUUID().slice(0, 8)}@example.com`;
  const contactId = await addContact(deps, client.id, { email });
  const counter = container.requestCounter;
  const run = async (runId: number) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: keys.run(client.id, runId), ConsistentRead: true })))
      .Item as RunRecord;
  return {
    deps,
    queue,
    scheduler,
    clientId: client.id,
    contactId,
    run,
    advance: (ms: number) => (now += ms),
    contactItem: async () =>
      (
        await db.send(
          new GetCommand({ TableName: tableName, Key: keys.contact(client.id, contactId), ConsistentRead: true }),
        )
      ).Item!,
    lockItem: async (cart: string) =>
      (
        await db.send(
          new GetCommand({
            TableName: tableName,
            Key: keys.runLock(client.id, JOURNEY, contactId, keyHashOf(cart)),
            ConsistentRead: true,
          }),
        )
      ).Item,
    /** Ingests the event a minute later, then processes it (through `processing` when given); requests by command. */
    async happen(body: Record<string, unknown>, processing?: ProcessingStore) {
      now += MINUTE;
      const raw = { ...body, email };
      const ingested = await ingestEvent(deps, client.id, EventBody.parse(raw), raw, 'async');
      const d: EngineDeps = processing ? { ...deps, processing } : deps;
      const { result, usage } = await counter.measure(() =>
        processEvent(eventProcessingDeps(d), client.id, ingested.event.id),
      );
      return { event: result!, requests: usage.by_command };
    },
    advanceRun: (message: RunMessage) => advanceRun(advanceDeps, message),
    journeyMessages: () => queue.sent.filter((s) => s.queue === 'journey').map((s) => s.message as RunMessage),
  };
}

const FOUR = { GetItemCommand: 2, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 };

describe('journeys, the event side, on DynamoDB', () => {
  it('enters a run in the event’s own four requests, and resumes its wait in four more: one message each', async () => {
    // Prepare
    const t = await setup();

    // Act: the cart is abandoned; the run takes its first step (into the wait); the cart is checked out.
    const abandoned = await t.happen({ type: 'cart_abandoned', cart_id: 'A-1' });
    const runId = abandoned.event.journey_entries![0]!.run_id!;
    await t.advanceRun(t.journeyMessages()[0]!);
    const waiting = await t.run(runId);
    const checkout = await t.happen({ type: 'checkout_completed', cart_id: 'A-1' });

    // Assess: the entry — run, lock and marker written by the commit; 4 requests and one message.
    expect(abandoned.requests).toEqual(FOUR);
    expect(abandoned.event.journey_entries).toEqual([{ journey_id: JOURNEY, run_id: runId, outcome: 'entered' }]);
    expect(waiting).toMatchObject({ status: 'waiting', seq: 2, step_id: 'wait_checkout' });
    expect(await t.lockItem('A-1')).toMatchObject({ run_id: runId, active: true });
    // Assess: the resolution — no request of its own; the run active at seq 3; its timeout's schedule released.
    expect(checkout.requests).toEqual(FOUR);
    expect(checkout.event.resumed_run_ids).toEqual([runId]);
    expect(await t.run(runId)).toMatchObject({
      status: 'active',
      seq: 3,
      resumed_by: { event_id: checkout.event.id, at: checkout.event.processed_at },
    });
    const contact = await t.contactItem();
    expect(contact).not.toHaveProperty(`wait_${runId}`);
    expect(contact[`run_${runId}`]).toMatchObject({ j: JOURNEY });
    expect(t.journeyMessages().at(-1)).toEqual({
      client_id: t.clientId,
      run_id: runId,
      seq: 3,
      contact_id: t.contactId,
      // The run's journey and version: a cold container reads the version with the run.
      journey_id: JOURNEY,
      version: 1,
    });
    expect(t.scheduler.cancelled).toEqual([`run-${t.clientId}-${runId}-2-${Date.parse(waiting.due_at!)}`]);
    // The run then ends on_event; the timeout's message, had it fired, finds its seq stale.
    await t.advanceRun(t.journeyMessages().at(-1)!);
    expect(await t.advanceRun({ client_id: t.clientId, run_id: runId, seq: 2 })).toEqual({ kind: 'stale' });
    expect((await t.run(runId)).path.map((p) => p.via)).toEqual(['on_event']);
  });

  it('commits the event again without the run when the timeout moved it between the event’s read and its commit', async () => {
    // Prepare: the run waits; time passes its timeout.
    const t = await setup();
    const abandoned = await t.happen({ type: 'cart_abandoned', cart_id: 'A-1' });
    const runId = abandoned.event.journey_entries![0]!.run_id!;
    await t.advanceRun(t.journeyMessages()[0]!);
    t.advance(61 * MINUTE);
    const real = t.deps.processing;
    let raced = false;
    const processing: ProcessingStore = {
      findContactId: (c, ref) => real.findContactId(c, ref),
      loadContext: async (c, id, w) => {
        const context = await real.loadContext(c, id, w);
        if (!raced) {
          raced = true;
          // The timeout's message is delivered right after the event read the contact (with its wait marker).
          await t.advanceRun({ client_id: t.clientId, run_id: runId, seq: 2 });
        }
        return context;
      },
      commit: (commit) => real.commit(commit),
    };

    // Act
    const checkout = await t.happen({ type: 'checkout_completed', cart_id: 'A-1' }, processing);

    // Assess: DynamoDB refused the resolution (seq 2 was gone): one more commit without it, nothing resumed. Three
    // transactions in the window: the timeout's transition, the refused commit, the one without the run.
    expect(checkout.requests.TransactWriteItemsCommand).toBe(3);
    expect(checkout.event.queue_status).toBe('processed');
    expect(checkout.event).not.toHaveProperty('resumed_run_ids');
    expect(await t.run(runId)).toMatchObject({ status: 'active', seq: 3, step_id: 'cool_down' });
    expect((await t.run(runId)).path.map((p) => p.via)).toEqual(['on_timeout']);
  });
});
