import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { compileIndex } from '../../../shared/domain/segments/definition/specs.js';
import type { CompiledSegment } from '../../../shared/domain/segments/definition/types.js';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { documentClient } from '../support/partition.js';

/**
 * Membership kept by the change stream, over the local runtime: a contact written through the API reaches the change
 * router, the segments queue and the evaluator, and its member entries follow; an event a segment counts is counted in
 * its processing and moves the contact in once the window holds enough. The client's segment index is written as the
 * segments API compiles it (this test needs only the membership engine).
 */
const PRO: CompiledSegment = {
  id: 1,
  version: 1,
  definition: {
    match: 'all',
    groups: [
      {
        match: 'all',
        conditions: [
          { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' },
          { on: 'subscription', op: 'subscribed' },
        ],
      },
    ],
  },
};
const BUYERS: CompiledSegment = {
  id: 2,
  version: 1,
  definition: {
    match: 'all',
    groups: [
      {
        match: 'all',
        conditions: [{ on: 'event_count', event: 'purchase', op: 'at_least', count: 2, within_days: 7 }],
      },
    ],
  },
};

async function clientWithSegments() {
  const client = await createTestClient();
  await documentClient().send(
    new PutCommand({
      TableName: inject('tableName'),
      Item: { ...keys.segmentIndex(client.id), version: 1, ...compileIndex([PRO, BUYERS]) },
    }),
  );
  return client;
}

async function membersOf(clientId: number, segmentId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let shard = 0; shard < keys.segmentMemberShards; shard += 1) {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: inject('tableName'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.segmentMemberPk(clientId, segmentId, shard) },
        ConsistentRead: true,
      }),
    );
    ids.push(...(out.Items ?? []).map((item) => Number(item['contact_id'])));
  }
  return ids.sort((a, b) => a - b);
}

/** The segment's member count as the day-counters projection keeps it (its gauge row). */
const gaugeBecomes = (clientId: number, segmentId: number, expected: number) =>
  eventually(
    `segment ${segmentId} counted ${expected}`,
    async () => {
      const out = await documentClient().send(
        new GetCommand({
          TableName: inject('tableName'),
          Key: keys.statsSegmentGauge(clientId, segmentId),
          ConsistentRead: true,
        }),
      );
      return Number(out.Item?.['n'] ?? 0) === expected ? expected : undefined;
    },
    { timeoutMs: 30_000 },
  );

const membersBecome = (clientId: number, segmentId: number, expected: number[]) =>
  eventually(`segment ${segmentId} members ${JSON.stringify(expected)}`, async () => {
    const members = await membersOf(clientId, segmentId);
    return JSON.stringify(members) === JSON.stringify(expected) ? members : undefined;
  });

describe('segment membership kept by the change stream', () => {
  it('moves a contact in and out as its custom field and subscription change', async () => {
    // Prepare
    const client = await clientWithSegments();
    const key = client.api_key;
    const ann = await call('POST', '/client/contacts', {
      key,
      body: { email: 'ann@example.com', custom_fields: { plan: 'pro' } },
    });
    const bob = await call('POST', '/client/contacts', {
      key,
      body: { email: 'bob@example.com', custom_fields: { plan: 'free' } },
    });
    expect(ann.status, ann.text).toBe(201);
    expect(bob.status, bob.text).toBe(201);
    const annId = ann.body.data.id as number;
    const bobId = bob.body.data.id as number;

    // Act + Assess: created as pro, then each change moves the members
    await membersBecome(client.id, PRO.id, [annId]);
    expect(
      (await call('PATCH', `/client/contacts/${bobId}`, { key, body: { custom_fields: { plan: 'pro' } } })).status,
    ).toBe(200);
    await membersBecome(
      client.id,
      PRO.id,
      [annId, bobId].sort((a, b) => a - b),
    );
    await gaugeBecomes(client.id, PRO.id, 2);
    expect(
      (await call('PATCH', `/client/contacts/${annId}`, { key, body: { custom_fields: { plan: 'team' } } })).status,
    ).toBe(200);
    await membersBecome(client.id, PRO.id, [bobId]);
    const unsubscribed = await call('PATCH', `/client/contacts/${bobId}/subscription`, {
      key,
      body: { is_subscribed: false },
    });
    expect(unsubscribed.status, unsubscribed.text).toBe(200);
    await membersBecome(client.id, PRO.id, []);
    await gaugeBecomes(client.id, PRO.id, 0);
  });

  it('counts a segment event type in processing and lets the contact in at the second event within the window', async () => {
    // Prepare
    const client = await clientWithSegments();
    const key = client.api_key;
    const created = await call('POST', '/client/contacts', { key, body: { email: 'cy@example.com' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as number;
    const purchase = (ts: string) =>
      call('POST', '/client/events?sync=true', { key, body: { type: 'purchase', email: 'cy@example.com', ts } });

    // Act
    expect((await purchase(new Date(Date.now() - 3_600_000).toISOString())).status).toBe(201);
    // One purchase is not two: the contact stays out while its counters say one.
    await eventually('the first purchase counted', async () => {
      const out = await documentClient().send(
        new QueryCommand({
          TableName: inject('tableName'),
          KeyConditionExpression: 'pk = :pk AND sk = :sk',
          ExpressionAttributeValues: { ':pk': keys.contactCounters(client.id, id).pk, ':sk': 'EVCOUNT' },
          ConsistentRead: true,
        }),
      );
      return out.Items?.[0]?.['ev_v'] === 1 ? out.Items[0] : undefined;
    });
    const afterOne = await membersOf(client.id, BUYERS.id);
    expect((await purchase(new Date().toISOString())).status).toBe(201);

    // Assess
    expect(afterOne).toEqual([]);
    await membersBecome(client.id, BUYERS.id, [id]);
  });
});
