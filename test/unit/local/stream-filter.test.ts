import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { streamFunctions, type StreamFunctionDefinition } from '../../../functions/streams.js';
import { executionItem } from '../../../shared/adapters/dynamo/execution-item.js';
import { stripKeys } from '../../../shared/adapters/dynamo/items.js';
import { ENTITY, keys } from '../../../shared/adapters/dynamo/keys.js';
import { factsOfStreamRecords } from '../../../shared/adapters/dynamo/webhook-stream-facts.js';
import { matches } from '../../../local/engine/stream-poller.js';
import type { ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';

const AT = '2026-01-15T10:00:00.000Z';
const change = (item: Record<string, unknown>): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { Keys: marshall({ pk: item['pk'], sk: item['sk'] }) as never, NewImage: marshall(item) as never },
});
const webhookFacts = streamFunctions.find((f) => f.handler === 'webhook-facts') as StreamFunctionDefinition;
const execution = {
  id: 11,
  client_id: 7,
  workflow_id: 1,
  contact_id: 3,
  event_id: 21,
  status: 4,
  is_test: false,
  created_at: AT,
  updated_at: AT,
} as unknown as ExecutionRecord;

describe('items name their entity, and stream filters match on it', () => {
  it('the item builders write the entity the stream functions filter on, and a record read back does not carry it', () => {
    expect(keys.contactItem(7, 3).entity).toBe(ENTITY.contact);
    expect(keys.sentEmailLogItem(7, 'se-1', AT, 'l1').entity).toBe(ENTITY.sentEmailLog);
    expect(executionItem(execution).entity).toBe(ENTITY.execution);
    expect(stripKeys<Record<string, unknown>>(executionItem(execution))).toEqual(execution);
  });

  it('passes an item by its entity alone: a wanted key prefix with another entity stays out', () => {
    expect(matches(webhookFacts, change({ ...keys.contactItem(7, 3), id: 3 }))).toBe(true);
    expect(matches(webhookFacts, change({ ...keys.sentEmailLogItem(7, 'se-1', AT, 'l1'), status: 2 }))).toBe(true);
    expect(matches(webhookFacts, change(executionItem(execution)))).toBe(true);
    expect(matches(webhookFacts, change({ ...keys.contact(7, 3), entity: 'something_else' }))).toBe(false);
  });

  it('passes an item written before items named their entity on its key prefix, and no other key', () => {
    expect(matches(webhookFacts, change({ ...keys.contact(7, 3), id: 3 }))).toBe(true);
    expect(matches(webhookFacts, change({ ...keys.execution(7, 11), status: 4 }))).toBe(true);
    expect(matches(webhookFacts, change({ ...keys.sentEmailLog(7, 'se-1', AT, 'l1'), status: 2 }))).toBe(true);
    expect(matches(webhookFacts, change({ ...keys.clientProfile(7) }))).toBe(false);
    expect(matches(webhookFacts, change({ ...keys.event(7, 21) }))).toBe(false);
  });

  it('passes the removal of an item whose kind a function counts down, on its old image', () => {
    const dayCounters = streamFunctions.find((f) => f.handler === 'day-counters') as StreamFunctionDefinition;
    const member = { ...keys.segmentMember(7, 1, 3), segment_id: 1, at: AT };
    const removal = (item: Record<string, unknown>): DynamoDBRecord => ({
      eventName: 'REMOVE',
      dynamodb: { Keys: marshall({ pk: item['pk'], sk: item['sk'] }) as never, OldImage: marshall(item) as never },
    });
    expect(matches(dayCounters, change(member))).toBe(true);
    expect(matches(dayCounters, removal(member))).toBe(true);
    // Another counted kind's removal (a run's TTL) is no fact of the day counters.
    expect(matches(dayCounters, removal({ ...keys.run(7, 5), entity: ENTITY.run }))).toBe(false);
    expect(matches(webhookFacts, removal(member))).toBe(false);
  });

  it("keeps the entity out of a status log's webhook fact", () => {
    const [fact] = factsOfStreamRecords([
      change({ ...keys.sentEmailLogItem(7, 'se-1', AT, 'l2'), id: 'l2', created_at: AT, status: 2 }),
    ]);
    expect(fact).toMatchObject({ kind: 'email', type: 'email.sent' });
    expect((fact as unknown as { log: Record<string, unknown> }).log).toEqual({ id: 'l2', created_at: AT, status: 2 });
  });
});
