import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../../local/dynamodb.js';
import { createFaultInjection } from '../../../shared/adapters/faults/fault-injection.js';
import { segmentHolds } from '../../../shared/domain/segments/definition/evaluate.js';
import { DynamoErasureStore } from '../../../shared/adapters/dynamo/erasure-store.js';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { createContainer } from '../../../shared/composition/container.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { membershipStore } from '../../../shared/composition/providers/membership-store.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { loadConfig } from '../../../shared/config.js';
import { compileIndex } from '../../../shared/domain/segments/definition/specs.js';
import type { CompiledSegment } from '../../../shared/domain/segments/definition/types.js';
import { evaluateContacts } from '../../../shared/domain/segments/evaluate-contacts.js';
import { sweepSegmentEdges } from '../../../shared/domain/segments/sweep-segment-edges.js';
import { contactRecord } from '../../unit/support/contact-fixtures.js';
import { RecordingQueue } from '../../unit/domain/engine/engine-harness.js';
import { nextRecordId } from './engine-support.js';
import { freshClientId } from './support.js';

/**
 * The membership store on DynamoDB Local: the evaluator's one read and its transactions as DynamoDB evaluates them
 * (the sv condition, member entries in their partitions, the sparse due entry), the edges sweep over the due index
 * with an injected clock, and the erasure of what segments keep.
 */
// A table of its own: the local runtime of the integration run reads the shared table's stream and would evaluate these
// contacts on its real clock, while these tests move theirs.
const TABLE = `membership-${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  const client = new DynamoDBClient({
    endpoint: inject('dynamoEndpoint'),
    region: process.env['AWS_REGION'] ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureTable(client, TABLE);
  client.destroy();
});
const container = createContainer({
  config: loadConfig({
    AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    TABLE_NAME: TABLE,
    AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
    CONFIG_CACHE_TTL_SECONDS: '0',
  }),
});
const DAY = 86_400_000;

const SEGMENTS: CompiledSegment[] = [
  {
    id: 1,
    version: 1,
    definition: {
      match: 'all',
      groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
    },
  },
  {
    id: 2,
    version: 1,
    definition: {
      match: 'all',
      groups: [{ match: 'all', conditions: [{ on: 'date', field: 'last_activity_at', op: 'within_days', value: 1 }] }],
    },
  },
];

async function world(start: Date) {
  const { db, tableName } = tableOf(container);
  const clientId = freshClientId();
  const install = () =>
    db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.segmentIndex(clientId), version: 1, ...compileIndex(SEGMENTS) },
      }),
    );
  const { contacts } = container.resolve([contactStore]);
  const { membership } = container.resolve([membershipStore]);
  let now = start.getTime();
  const clock = { now: () => new Date(now) };
  const add = async (fields: Parameters<typeof contactRecord>[0]) => {
    const id = nextRecordId();
    await contacts.create(
      contactRecord({ id, client_id: clientId, email: `m-${id}@example.com`, client_contact_id: undefined, ...fields }),
    );
    return id;
  };
  const membersOf = async (segmentId: number) => {
    const ids: number[] = [];
    for (let shard = 0; shard < keys.segmentMemberShards; shard += 1) {
      const out = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.segmentMemberPk(clientId, segmentId, shard) },
          ConsistentRead: true,
        }),
      );
      for (const item of out.Items ?? []) {
        expect(item).toMatchObject({ entity: 'segment_member', client_id: clientId, segment_id: segmentId });
        ids.push(Number(item['contact_id']));
      }
    }
    return ids.sort((a, b) => a - b);
  };
  const stateOf = async (contactId: number) =>
    (
      await db.send(
        new GetCommand({ TableName: tableName, Key: keys.segmentState(clientId, contactId), ConsistentRead: true }),
      )
    ).Item;
  return {
    db,
    tableName,
    clientId,
    contacts,
    membership,
    clock,
    advance: (ms: number) => {
      now += ms;
    },
    add,
    install,
    membersOf,
    stateOf,
  };
}

describe('membership store (DynamoDB Local)', () => {
  it('writes memberships, zones and the due entry in one transaction per contact, and nothing when nothing moved', async () => {
    // Prepare
    const start = new Date('2026-06-01T12:00:00.000Z');
    const w = await world(start);
    const pro = await w.add({ custom_fields: { plan: { id: 1, value: 'pro' } }, timezone: 'Asia/Tokyo' });
    const active = await w.add({ last_activity_at: '2026-06-01T11:00:00.000Z' });
    const neither = await w.add({});
    await w.install();

    // Act
    const first = await evaluateContacts(w, w.clientId, [pro, active, neither]);
    const again = await evaluateContacts(w, w.clientId, [pro, active, neither]);

    // Assess
    expect(first).toEqual({ evaluated: 3, entered: 2, left: 0, written: 2 });
    expect(again).toEqual({ evaluated: 3, entered: 0, left: 0, written: 0 });
    expect(await w.membersOf(1)).toEqual([pro]);
    expect(await w.membersOf(2)).toEqual([active]);
    const member = await w.db.send(
      new GetCommand({
        TableName: w.tableName,
        Key: (({ pk, sk }) => ({ pk, sk }))(keys.segmentMember(w.clientId, 1, pro)),
      }),
    );
    expect(member.Item).toMatchObject({ z: 'Asia/Tokyo', at: start.toISOString() });
    expect(await w.stateOf(active)).toMatchObject({
      sv: 1,
      m_2: 1,
      next_eval_at: '2026-06-02T11:00:00.000Z',
      ...keys.segmentDueEntry(w.clientId, active, '2026-06-02T11:00:00.000Z'),
    });
    expect(await w.stateOf(neither)).toBeUndefined();
  });

  it('refuses a transition decided on a state that moved since, writing none of its items', async () => {
    // Prepare
    const w = await world(new Date('2026-06-01T12:00:00.000Z'));
    const id = await w.add({ custom_fields: { plan: { id: 1, value: 'pro' } } });
    await w.install();
    await evaluateContacts(w, w.clientId, [id]);

    // Act
    const outcome = await w.membership.commit([
      {
        clientId: w.clientId,
        contactId: id,
        svRead: undefined,
        state: { sv: 1, members: {} },
        entered: [],
        rezoned: [],
        left: [1],
        at: '2026-06-01T12:00:00.000Z',
      },
    ]);

    // Assess
    expect(outcome).toEqual({ conflicts: [id] });
    expect(await w.membersOf(1)).toEqual([id]);
  });

  it('takes a contact out by time when the sweep finds its edge, and back in on new activity', async () => {
    // Prepare
    const w = await world(new Date('2026-06-01T12:00:00.000Z'));
    const id = await w.add({ last_activity_at: '2026-06-01T11:30:00.000Z' });
    await w.install();
    await evaluateContacts(w, w.clientId, [id]);
    const queue = new RecordingQueue();

    // Act
    w.advance(DAY);
    await sweepSegmentEdges({ membership: w.membership, queue, clock: w.clock });
    const mine = queue.sent.flatMap(({ message }) => {
      const m = message as { client_id: number; contact_ids: number[] };
      return m.client_id === w.clientId ? m.contact_ids : [];
    });
    await evaluateContacts(w, w.clientId, mine);
    const afterDay = await w.membersOf(2);
    const stateAfterDay = await w.stateOf(id);
    await w.db.send(
      new UpdateCommand({
        TableName: w.tableName,
        Key: keys.contact(w.clientId, id),
        UpdateExpression: 'SET last_activity_at = :at',
        ExpressionAttributeValues: { ':at': w.clock.now().toISOString() },
      }),
    );
    await evaluateContacts(w, w.clientId, [id]);

    // Assess
    expect(mine).toEqual([id]);
    expect(afterDay).toEqual([]);
    expect(stateAfterDay?.['next_eval_at']).toBeUndefined();
    expect(stateAfterDay?.['gsi3pk']).toBeUndefined();
    expect(await w.membersOf(2)).toEqual([id]);
  });

  it('erases the contact counters, state and member entries', async () => {
    // Prepare
    const w = await world(new Date('2026-06-01T12:00:00.000Z'));
    const id = await w.add({
      custom_fields: { plan: { id: 1, value: 'pro' } },
      last_activity_at: '2026-06-01T11:00:00.000Z',
    });
    await w.install();
    await evaluateContacts(w, w.clientId, [id]);
    await w.db.send(
      new PutCommand({
        TableName: w.tableName,
        Item: { ...keys.contactCounters(w.clientId, id), entity: 'contact_counters', ev_v: 1, evs_abcd1234: [1] },
      }),
    );

    // Act
    const removed = await new DynamoErasureStore(w.db, w.tableName).dropSegmentData(w.clientId, id);

    // Assess
    expect(removed).toBe(3);
    expect(await w.membersOf(1)).toEqual([]);
    expect(await w.membersOf(2)).toEqual([]);
    expect(await w.stateOf(id)).toBeUndefined();
    const counters = await w.db.send(
      new GetCommand({ TableName: w.tableName, Key: keys.contactCounters(w.clientId, id), ConsistentRead: true }),
    );
    expect(counters.Item).toBeUndefined();
  });

  it('costs one BatchGetItem a message of 25 contacts, and one TransactWriteItems more when some moved', async () => {
    // Prepare
    const w = await world(new Date('2026-06-01T12:00:00.000Z'));
    const ids: number[] = [];
    for (let i = 0; i < 25; i += 1)
      ids.push(await w.add(i % 5 === 0 ? { custom_fields: { plan: { id: 1, value: 'pro' } } } : {}));
    await w.install();
    const counter = container.requestCounter;

    // Act
    const moved = await counter.measure(() => evaluateContacts(w, w.clientId, ids));
    const still = await counter.measure(() => evaluateContacts(w, w.clientId, ids));

    // Assess
    expect(moved.result).toMatchObject({ evaluated: 25, entered: 5, written: 5 });
    expect(moved.usage.by_command).toEqual({ BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(still.result).toMatchObject({ evaluated: 25, written: 0 });
    expect(still.usage.by_command).toEqual({ BatchGetItemCommand: 1 });
  });

  it('under injected faults (writes applied but answered by a reset, throttles) ends with exactly the members', async () => {
    // Prepare: the evaluator's own container, its DynamoDB client faulty below the SDK's retries.
    const w = await world(new Date());
    const injection = createFaultInjection({ spec: 'dynamo:reset-after-write:0.3,dynamo:throttle:0.1', seed: 35 });
    const faulty = createContainer({
      config: loadConfig({
        AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
        TABLE_NAME: TABLE,
        AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
        CONFIG_CACHE_TTL_SECONDS: '0',
      }),
    });
    injection.dynamo(tableOf(faulty).db);
    const evaluator = { membership: faulty.resolve([membershipStore]).membership, clock: w.clock };
    const ids: number[] = [];
    for (let i = 0; i < 40; i += 1)
      ids.push(
        await w.add({
          ...(i % 3 === 0 ? { custom_fields: { plan: { id: 1, value: 'pro' } } } : {}),
          ...(i % 2 === 0 ? { last_activity_at: new Date(Date.now() - 3_600_000).toISOString() } : {}),
        }),
      );
    await w.install();

    // Act: each message of 10 contacts until it succeeds, as SQS delivers a failed message again.
    let failures = 0;
    for (let i = 0; i < ids.length; i += 10)
      for (let delivery = 1; ; delivery += 1) {
        try {
          await evaluateContacts(evaluator, w.clientId, ids.slice(i, i + 10));
          break;
        } catch (error) {
          failures += 1;
          if (delivery >= 10) throw error;
        }
      }

    // Assess
    const contacts = await w.contacts.getMany(w.clientId, ids);
    for (const segment of SEGMENTS) {
      const expected = ids.filter((id) =>
        segmentHolds(segment.definition, { contact: contacts.get(id)! }, w.clock.now()),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(await w.membersOf(segment.id)).toEqual(expected);
    }
    // Writes applied whose answer was lost: the SDK's retry met the state's condition, read as a conflict, read again.
    expect(injection.counts().dynamo?.injected['reset-after-write']).toBeGreaterThan(0);
    expect(failures).toBeLessThanOrEqual(ids.length);
  });
});
