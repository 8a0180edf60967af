import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { queryAll } from '../../../../shared/adapters/dynamo/query-all.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
afterEach(() => dbMock.reset());

describe('queryAll', () => {
  it('reads page after page from where the last one stopped, keeping the order', async () => {
    // Prepare
    const cursor = { pk: 'P', sk: 'S#2' };
    dbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ n: 1 }, { n: 2 }], LastEvaluatedKey: cursor })
      .resolvesOnce({ Items: [{ n: 3 }] });
    const input = {
      TableName: 't',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'P' },
      ScanIndexForward: false,
    };
    // Act
    const items = await queryAll(db, input);
    // Assess
    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(dbMock.commandCalls(QueryCommand).map((c) => c.args[0].input)).toEqual([
      { ...input, ExclusiveStartKey: undefined },
      { ...input, ExclusiveStartKey: cursor },
    ]);
  });
});
