import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoContactActivityStore } from '../../../../shared/adapters/dynamo/contact-activity-store.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';

beforeEach(() => dbMock.reset());

describe('DynamoContactActivityStore.journeyNames', () => {
  it("reads the client's journey index, its journeys only, with one eventually consistent GetItem", async () => {
    // Prepare
    dbMock.on(GetCommand).resolves({
      Item: {
        journeys: [
          { id: 1000, name: 'Cart reminder' },
          { id: 1003, name: 'Trial nudges' },
        ],
      },
    });
    const store = new DynamoContactActivityStore(db, TABLE);

    // Act
    const names = await store.journeyNames(7);

    // Assess
    expect([...names]).toEqual([
      [1000, 'Cart reminder'],
      [1003, 'Trial nudges'],
    ]);
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'CLIENT#7', sk: 'JOURNEYINDEX' },
      ProjectionExpression: '#journeys',
      ExpressionAttributeNames: { '#journeys': 'journeys' },
    });
  });

  it('names none for a client without a journey index', async () => {
    dbMock.on(GetCommand).resolves({});
    const store = new DynamoContactActivityStore(db, TABLE);

    expect((await store.journeyNames(7)).size).toBe(0);
  });
});
