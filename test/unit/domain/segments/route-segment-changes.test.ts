import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { segmentChangesOfStreamRecords } from '../../../../shared/adapters/dynamo/segment-routing.js';
import { compileIndex } from '../../../../shared/domain/segments/definition/specs.js';
import type { SegmentIndex } from '../../../../shared/domain/segments/membership-store.js';
import { routeSegmentChanges } from '../../../../shared/domain/segments/route-segment-changes.js';
import type { BatchMessage, Queue, QueueName } from '../../../../shared/platform.js';

const CLIENT = 7;
const OTHER = 8;
const INDEX: SegmentIndex = {
  version: 1,
  ...compileIndex([
    {
      id: 1,
      version: 1,
      definition: {
        match: 'all',
        groups: [
          {
            match: 'all',
            conditions: [
              { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' },
              { on: 'event_count', event: 'purchase', op: 'at_least', count: 2 },
            ],
          },
        ],
      },
    },
  ]),
};

const contactImage = (client: number, id: number, fields: Record<string, unknown> = {}) => ({
  pk: `CONTACT#${client}#${id}`,
  sk: 'CONTACT',
  entity: 'contact',
  id,
  client_id: client,
  email: `c${id}@example.com`,
  custom_fields: { plan: { id: 1, value: 'free' } },
  total_emails_sent: 0,
  ...fields,
});

const record = (
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  old: Record<string, unknown> | undefined,
  next: Record<string, unknown> | undefined,
): DynamoDBRecord => ({
  eventName,
  dynamodb: {
    ...(old ? { OldImage: marshall(old) as never } : {}),
    ...(next ? { NewImage: marshall(next) as never } : {}),
  },
});

function harness(indexes: Record<number, SegmentIndex | undefined> = { [CLIENT]: INDEX }) {
  const sent: BatchMessage<'segments'>[] = [];
  const reads: number[] = [];
  const queue: Queue = {
    send: async () => undefined,
    sendBatch: async <Q extends QueueName>(_q: Q, messages: readonly BatchMessage<Q>[]) => {
      sent.push(...(messages as unknown as BatchMessage<'segments'>[]));
    },
  };
  const membership = {
    index: async (clientId: number) => {
      reads.push(clientId);
      return indexes[clientId];
    },
  };
  const route = (records: DynamoDBRecord[]) =>
    routeSegmentChanges({ membership, queue }, segmentChangesOfStreamRecords(records));
  return { sent, reads, route };
}

describe('the change router', () => {
  it('routes nothing for a send moving only the figures no segment reads', async () => {
    // Prepare
    const h = harness();
    const before = contactImage(CLIENT, 1);
    const after = { ...before, total_emails_sent: 1, last_workflow_at: '2026-06-01T00:00:00Z', open_991: { w: 1 } };

    // Act
    const outcome = await h.route([record('MODIFY', before, after)]);

    // Assess
    expect(outcome).toEqual({ routed: 0, messages: 0 });
    expect(h.sent).toEqual([]);
  });

  it('routes a watched attribute change, a new or removed contact and a counters write, each contact once', async () => {
    // Prepare
    const h = harness();
    const c1 = contactImage(CLIENT, 1);
    const counters = { pk: `CONTACT#${CLIENT}#4`, sk: 'EVCOUNT', entity: 'contact_counters', ev_v: 1 };

    // Act
    await h.route([
      record('MODIFY', c1, { ...c1, custom_fields: { plan: { id: 1, value: 'pro' } } }),
      record('MODIFY', c1, { ...c1, timezone: 'Europe/Paris' }),
      record('INSERT', undefined, contactImage(CLIENT, 2)),
      record('REMOVE', contactImage(CLIENT, 3), undefined),
      record('INSERT', undefined, counters),
      // The contact's segment state and other items of its partition are no change of the contact.
      record(
        'MODIFY',
        { pk: `CONTACT#${CLIENT}#5`, sk: 'SEGSTATE', sv: 1 },
        { pk: `CONTACT#${CLIENT}#5`, sk: 'SEGSTATE', sv: 2 },
      ),
    ]);

    // Assess
    expect(h.sent).toEqual([{ message: { kind: 'contacts', client_id: CLIENT, contact_ids: [1, 2, 3, 4] } }]);
  });

  it('routes nothing of a client without segments', async () => {
    // Prepare
    const h = harness();
    const c = contactImage(OTHER, 1);

    // Act
    await h.route([record('MODIFY', c, { ...c, tags: ['vip'] }), record('INSERT', undefined, contactImage(OTHER, 2))]);

    // Assess
    expect(h.sent).toEqual([]);
    expect(h.reads).toEqual([OTHER]);
  });

  it('packs 25 contacts a message and reads each client index once a batch', async () => {
    // Prepare
    const h = harness();
    const records = Array.from({ length: 30 }, (_, i) => record('INSERT', undefined, contactImage(CLIENT, i + 1)));

    // Act
    await h.route(records);

    // Assess
    expect(h.sent.map((m) => (m.message as { contact_ids: number[] }).contact_ids.length)).toEqual([25, 5]);
    expect(h.reads).toEqual([CLIENT]);
  });
});
