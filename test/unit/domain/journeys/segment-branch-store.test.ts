import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigCache } from '../../../../shared/adapters/dynamo/config-cache.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { runItem } from '../../../../shared/adapters/dynamo/run-item.js';
import { DynamoRunStore } from '../../../../shared/adapters/dynamo/run-store.js';
import { runRecord } from '../runs/run-fixtures.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const asked = (call: number) => dbMock.commandCalls(BatchGetCommand)[call]!.args[0].input.RequestItems![TABLE]!.Keys;

beforeEach(() => dbMock.reset());

describe('DynamoRunStore: the memberships a segment branch reads', () => {
  it('reads the contact’s SEGSTATE and the segment index in the run’s one BatchGetItem; a deleted segment is no one’s', async () => {
    // Prepare: the contact's state names 7 and 9; the index holds 7 and 8 (9 was deleted).
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          runItem(runRecord()),
          { ...keys.segmentState(7, 100), sv: 4, m_7: 1, m_9: 2 },
          {
            ...keys.segmentIndex(7),
            version: 3,
            segments: [
              { id: 7, version: 1, definition: {} },
              { id: 8, version: 1, definition: {} },
            ],
            specs: [],
            watched: [],
          },
        ],
      },
    });
    const store = new DynamoRunStore(db, TABLE, new ConfigCache(30_000));

    // Act
    const reads = await store.read(7, {
      runId: 4242,
      config: false,
      segments: { contactId: 100, segmentIds: [7, 8, 9] },
    });

    // Assess
    expect(dbMock.calls()).toHaveLength(1);
    expect(asked(0)).toEqual([keys.run(7, 4242), keys.segmentState(7, 100), keys.segmentIndex(7)]);
    expect(reads.segments).toEqual({ 7: true, 8: false, 9: false });
  });

  it('takes the segment index from the configuration cache the second time; reads no SEGSTATE when no segment is asked', async () => {
    // Prepare
    dbMock.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [runItem(runRecord())] } });
    const store = new DynamoRunStore(db, TABLE, new ConfigCache(30_000));
    await store.read(7, { runId: 4242, config: false, segments: { contactId: 100, segmentIds: [7] } });

    // Act
    const again = await store.read(7, { runId: 4242, config: false, segments: { contactId: 100, segmentIds: [7] } });
    const without = await store.read(7, { runId: 4242, config: false, contactId: 100 });

    // Assess
    expect(asked(1)).toEqual([keys.run(7, 4242), keys.segmentState(7, 100)]);
    expect(again.segments).toEqual({ 7: false });
    expect(asked(2)).toEqual([keys.run(7, 4242), keys.contact(7, 100)]);
    expect(without.segments).toBeUndefined();
  });
});
