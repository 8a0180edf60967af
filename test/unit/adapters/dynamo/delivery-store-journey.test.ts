import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDeliveryStore } from '../../../../shared/adapters/dynamo/delivery-store.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import type { ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';

beforeEach(() => dbMock.reset());

const SYSTEM_EXECUTION = {
  id: 1,
  client_id: 7,
  workflow_id: 2,
  contact_id: 9,
  template_id: 2,
  cap_day: '2026-01-15',
} as ExecutionRecord;

/** A journey's send step (runs/plan-send-step.ts): its run, and its journey's category and topic. */
const JOURNEY_EXECUTION = {
  ...SYSTEM_EXECUTION,
  workflow_id: 1000,
  run_id: 77,
  run_seq: 4,
  step_id: 'remind',
  journey_version: 2,
  category: 'transactional',
  topic_id: null,
} as ExecutionRecord;

const requestedKeys = () => dbMock.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!.Keys;

describe("DynamoDeliveryStore.load: a journey's send reads its journey in the one BatchGetItem", () => {
  it("reads the client's journey index instead of a customization, and no topics for a transactional journey", async () => {
    // Prepare
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          {
            pk: 'CLIENT#7',
            sk: 'JOURNEYINDEX',
            version: 3,
            journeys: [
              { id: 1001, name: 'Other', status: 'live' },
              { id: 1000, name: 'Cart reminder', status: 'paused' },
            ],
          },
        ],
      },
    });
    const store = new DynamoDeliveryStore(db, TABLE);

    // Act
    const context = await store.load(JOURNEY_EXECUTION);

    // Assess: one request; the index in place of CUSTOM#1000 (a journey has none); marketing's topics not asked
    expect(dbMock.calls()).toHaveLength(1);
    expect(requestedKeys()).toEqual([
      keys.contact(7, 9),
      keys.contactDayCap(7, 9, '2026-01-15'),
      keys.settings(7),
      keys.clientProfile(7),
      keys.sender(7),
      keys.journeyIndex(7),
    ]);
    expect(context.journey).toEqual({ id: 1000, name: 'Cart reminder', status: 'paused' });
    expect(context).not.toHaveProperty('customization', expect.anything());
  });

  it('leaves the journey out when the index no longer lists it (archived)', async () => {
    dbMock.on(BatchGetCommand).resolves({
      Responses: { [TABLE]: [{ pk: 'CLIENT#7', sk: 'JOURNEYINDEX', version: 4, journeys: [] }] },
    });
    const store = new DynamoDeliveryStore(db, TABLE);

    const context = await store.load({ ...JOURNEY_EXECUTION, category: 'marketing' });

    expect(context).not.toHaveProperty('journey');
    // A marketing journey reads the topics in the same request.
    expect(requestedKeys()).toContainEqual(keys.topics(7));
  });

  it("keeps the 8's read as it was: their customization, never the journey index", async () => {
    dbMock.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] } });
    const store = new DynamoDeliveryStore(db, TABLE);

    const context = await store.load(SYSTEM_EXECUTION);

    expect(requestedKeys()).toEqual([
      keys.contact(7, 9),
      keys.contactDayCap(7, 9, '2026-01-15'),
      keys.settings(7),
      keys.clientProfile(7),
      keys.sender(7),
      keys.customization(7, 2),
      keys.topics(7),
    ]);
    expect(context).not.toHaveProperty('journey');
  });
});
