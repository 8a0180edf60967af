import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoRateCounter } from '../../../../shared/adapters/dynamo/rate-counter.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const window = { clientId: 7, policy: 'events' as const, startsAt: 1_772_359_200, expiresAt: 1_772_359_261 };

beforeEach(() => dbMock.reset());

describe('DynamoRateCounter.add', () => {
  it('raises the window’s count with one UpdateItem on the client’s own rate partition and answers the new count', async () => {
    // Prepare
    dbMock.on(UpdateCommand).resolves({ Attributes: { n: 4, expires_at: window.expiresAt } });
    const counter = new DynamoRateCounter(db, 'tbl');

    // Act
    const count = await counter.add(window);

    // Assess
    expect(count).toBe(4);
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: 'tbl',
      Key: { pk: 'RATE#7#events', sk: '1772359200' },
      UpdateExpression: 'ADD #n :one SET expires_at = if_not_exists(expires_at, :expires)',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': 1, ':expires': 1_772_359_261 },
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('fails rather than guess when the store answers no count', async () => {
    dbMock.on(UpdateCommand).resolves({});
    await expect(new DynamoRateCounter(db, 'tbl').add(window)).rejects.toThrow(/no count/);
  });
});
