import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { runItem } from '../../../shared/adapters/dynamo/run-item.js';
import { DynamoRunStore } from '../../../shared/adapters/dynamo/run-store.js';
import { createContainer } from '../../../shared/composition/container.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { loadConfig } from '../../../shared/config.js';
import { advanceRun, type AdvanceDeps } from '../../../shared/domain/runs/advance-run.js';
import { sweepStuckRuns } from '../../../shared/domain/runs/sweep-runs.js';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import type { RunMessage } from '../../../shared/platform.js';
import { contactRecord } from '../../unit/support/contact-fixtures.js';
import { definitionOf, indexedOf, indexOf, runRecord, versionOf } from '../../unit/domain/runs/run-fixtures.js';
import { RecordingQueue, RecordingScheduler } from '../../unit/domain/engine/engine-harness.js';
import { nextRecordId } from './engine-support.js';
import { freshClientId } from './support.js';

/**
 * The run store on DynamoDB Local: advance-runs' read and transaction as DynamoDB evaluates them (expressions,
 * conditions, the RUNDUE index), through a wait_for_event, its timeout, a send, the sweep and the erasure.
 */
const container = createContainer({
  config: loadConfig({
    AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    TABLE_NAME: inject('tableName'),
    AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
  }),
});

class SteppingClock {
  constructor(public current: Date) {}
  now = () => new Date(this.current);
}

async function journeyRun(steps?: Parameters<typeof definitionOf>[0]) {
  const { db, tableName } = tableOf(container);
  const clientId = freshClientId();
  const contactId = nextRecordId();
  const runId = nextRecordId();
  const journeyId = 1000;
  const start = new Date(Date.now() - 60 * 60_000);
  const contacts = container.resolve([contactStore]).contacts;
  await contacts.create(
    contactRecord({
      id: contactId,
      client_id: clientId,
      email: `run-${contactId}@example.com`,
      client_contact_id: undefined,
    }),
  );
  const definition = definitionOf(
    steps ?? [
      {
        id: 'checkout',
        type: 'wait_for_event',
        event: 'checkout_completed',
        match_key: true,
        timeout_minutes: 5,
        on_event: null,
        on_timeout: 'remind',
      },
      { id: 'remind', type: 'send', template_id: 3, send_time: { mode: 0 }, next: null },
    ],
  );
  const entry = definition.entry;
  const version = { ...versionOf(definition, 1), client_id: clientId, journey_id: journeyId };
  const index = indexOf(indexedOf(definition, { id: journeyId }));
  const run = runRecord({
    id: runId,
    client_id: clientId,
    journey_id: journeyId,
    contact_id: contactId,
    step_id: entry,
    due_at: start.toISOString(),
    created_at: start.toISOString(),
    updated_at: start.toISOString(),
  });
  const put = (Item: Record<string, unknown>) => db.send(new PutCommand({ TableName: tableName, Item }));
  await put({ ...keys.journeyVersion(clientId, journeyId, 1), ...version });
  await put({ ...keys.journeyIndex(clientId), ...index });
  await put(runItem(run));
  await put({ ...keys.runLock(clientId, journeyId, contactId, run.key_hash), run_id: runId, active: true });
  const clock = new SteppingClock(start);
  const queue = new RecordingQueue();
  const deps: AdvanceDeps = {
    runs: new DynamoRunStore(db, tableName),
    contacts,
    clock,
    queue,
    scheduler: new RecordingScheduler(),
  };
  const get = async (key: { pk: string; sk: string }) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  const message: RunMessage = { client_id: clientId, run_id: runId, seq: 1, contact_id: contactId };
  return { clientId, contactId, runId, journeyId, deps, clock, queue, get, message, run };
}

describe('DynamoRunStore on DynamoDB Local', () => {
  it('enters a wait, refuses the same message again, takes the timeout into a send, sweeps and erases', async () => {
    // Prepare
    const t = await journeyRun();

    // Act: enter the wait, then the same message again.
    const entered = await advanceRun(t.deps, t.message);
    const repeated = await advanceRun(t.deps, t.message);

    // Assess
    expect(entered.kind).toBe('moved');
    expect(repeated).toEqual({ kind: 'stale' });
    const waiting = await t.get(keys.run(t.clientId, t.runId));
    expect(waiting).toMatchObject({ status: 'waiting', seq: 2, gsi3pk: `RUNDUE#${t.runId % 8}` });
    expect(await t.get(keys.contact(t.clientId, t.contactId))).toMatchObject({
      waits_v: 1,
      [`wait_${t.runId}`]: { q: 2, e: 'checkout_completed', s: 'checkout' },
    });

    // Act: the timeout, 5 minutes later.
    t.clock.current = new Date(t.clock.current.getTime() + 5 * 60_000);
    const timedOut = await advanceRun(t.deps, { ...t.message, seq: 2 });

    // Assess
    expect(timedOut.kind).toBe('moved');
    const sending = await t.get(keys.run(t.clientId, t.runId));
    const executionId = (sending!['sends'] as Record<string, { execution_id: number }>)['remind']!.execution_id;
    expect(sending).toMatchObject({ seq: 3, step_id: 'remind', wait: { kind: 'send', execution_id: executionId } });
    expect(await t.get(keys.execution(t.clientId, executionId))).toMatchObject({
      status: EXECUTION_STATUS.queued,
      run_id: t.runId,
      run_seq: 3,
    });
    const contact = await t.get(keys.contact(t.clientId, t.contactId));
    expect(contact).not.toHaveProperty(`wait_${t.runId}`);
    expect(contact).toHaveProperty(`open_${executionId}`);

    // Act: the send's safety net is overdue (its wake was lost): the sweep finds the run in RUNDUE.
    const sweep = await sweepStuckRuns(
      { runs: t.deps.runs, queue: t.queue, clock: { now: () => new Date(Date.now() + 3 * 60 * 60_000) } },
      { pageSize: 1000 },
    );

    // Assess
    expect(sweep.enqueued).toBeGreaterThan(0);
    expect(t.queue.sent.map((s) => s.message)).toContainEqual({
      client_id: t.clientId,
      run_id: t.runId,
      seq: 3,
      contact_id: t.contactId,
      execution_id: executionId,
      journey_id: t.journeyId,
      version: 1,
    });

    // Act: the contact is erased.
    const erased = await t.deps.runs.eraseRuns(t.clientId, [t.runId], new Date().toISOString());

    // Assess
    expect(erased).toEqual({ runs: 1, ended: 1 });
    const ended = await t.get(keys.run(t.clientId, t.runId));
    expect(ended).toMatchObject({ status: 'ended', reason: 'contact_erased', seq: 4 });
    expect(ended).not.toHaveProperty('event');
    expect(ended).not.toHaveProperty('gsi3pk');
    expect(await t.get(keys.runLock(t.clientId, t.journeyId, t.contactId, t.run.key_hash))).toBeUndefined();
  });

  it('reads the versions a message names with the run, leaving out one that does not exist', async () => {
    // Prepare
    const t = await journeyRun();

    // Act
    const reads = await t.deps.runs.read(t.clientId, {
      runId: t.runId,
      config: true,
      contactId: t.contactId,
      versions: { journeyId: t.journeyId, versions: [1, 9] },
    });
    const hinted = await advanceRun(t.deps, { ...t.message, journey_id: t.journeyId, version: 1 });

    // Assess
    expect(reads.run).toMatchObject({ id: t.runId, seq: 1 });
    expect(reads.versions).toEqual([
      expect.objectContaining({ client_id: t.clientId, journey_id: t.journeyId, version: 1 }),
    ]);
    expect(hinted.kind).toBe('moved');
    expect(t.queue.sent.at(-1)?.message).toMatchObject({ seq: 2, journey_id: t.journeyId, version: 1 });
  });

  it('ends at an exit with the lock released and the run marker removed', async () => {
    // Prepare
    const t = await journeyRun();
    t.clock.current = new Date(t.clock.current.getTime() + 5 * 60_000);
    await advanceRun(t.deps, t.message);
    // The event won: the processing commit's resolution, as it writes it.
    const { db, tableName } = tableOf(container);
    const resumed = { ...(await t.get(keys.run(t.clientId, t.runId)))! };
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...resumed, status: 'active', seq: 3, resumed_by: { event_id: 1, at: t.clock.current.toISOString() } },
      }),
    );

    // Act
    const outcome = await advanceRun(t.deps, { ...t.message, seq: 3 });

    // Assess
    expect(outcome.kind).toBe('moved');
    expect(await t.get(keys.run(t.clientId, t.runId))).toMatchObject({ status: 'completed', seq: 4 });
    expect(await t.get(keys.runLock(t.clientId, t.journeyId, t.contactId, t.run.key_hash))).toMatchObject({
      active: false,
    });
    expect(await t.get(keys.contact(t.clientId, t.contactId))).not.toHaveProperty(`run_${t.runId}`);
  });

  it('writes an update_contact step on the contact (conditioned on it as read) and a later branch reads it', async () => {
    // Prepare
    const t = await journeyRun([
      {
        id: 'mark',
        type: 'update_contact',
        set: { company: 'Acme' },
        set_custom: { plan: 'pro' },
        add_tags: ['cart'],
        next: 'check',
      },
      {
        id: 'check',
        type: 'branch',
        branches: [{ name: 'tagged', conditions: [{ on: 'tag', op: 'has', tag: 'cart' }], next: 'rest' }],
        otherwise: null,
      },
      { id: 'rest', type: 'wait', minutes: 10, next: null },
    ]);

    // Act
    const outcome = await advanceRun(t.deps, t.message);

    // Assess
    expect(outcome.kind).toBe('moved');
    expect(await t.get(keys.run(t.clientId, t.runId))).toMatchObject({
      seq: 2,
      step_id: 'rest',
      branches: { check: 'tagged' },
    });
    const contact = await t.get(keys.contact(t.clientId, t.contactId));
    expect(contact).toMatchObject({ company: 'Acme', tags: ['cart'], custom_fields: { plan: { value: 'pro' } } });
    expect((contact!['custom_fields'] as Record<string, { id: number }>)['plan']!.id).toEqual(expect.any(Number));
  });
});
