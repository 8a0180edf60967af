import { describe, expect, it } from 'vitest';
import {
  type CapturedCall,
  replayable,
  touchedKeys,
  withoutCondition,
} from '../../../../scripts/bench/engine-floor.js';

const key = (pk: string, sk: string) => ({ pk: { S: pk }, sk: { S: sk } });
const call = (command: string, input: Record<string, unknown>): CapturedCall => ({
  command,
  input,
  group: undefined,
  startedAt: 0,
  endedAt: 1,
});

describe('engine floor replay', () => {
  it('drops a condition with the names and values only it used, keeping those the update uses', () => {
    const update = withoutCondition({
      TableName: 't',
      Key: key('A', 'B'),
      UpdateExpression: 'SET #s = :s, #n = #n + :one',
      ConditionExpression: '#s = :pending AND attribute_exists(#pk)',
      ExpressionAttributeNames: { '#s': 'status', '#n': 'count', '#pk': 'pk' },
      ExpressionAttributeValues: { ':s': { N: '3' }, ':one': { N: '1' }, ':pending': { N: '1' } },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });

    expect(update).toEqual({
      TableName: 't',
      Key: key('A', 'B'),
      UpdateExpression: 'SET #s = :s, #n = #n + :one',
      ExpressionAttributeNames: { '#s': 'status', '#n': 'count' },
      ExpressionAttributeValues: { ':s': { N: '3' }, ':one': { N: '1' } },
    });
    // A put whose condition was its only expression keeps no empty maps (DynamoDB refuses them).
    expect(
      withoutCondition({
        TableName: 't',
        Item: key('A', 'B'),
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'pk' },
      }),
    ).toEqual({ TableName: 't', Item: key('A', 'B') });
  });

  it('drops every condition of a transaction, a ConditionCheck kept as a check that always holds; batches as they came', () => {
    const input = replayable('TransactWriteItemsCommand', {
      TransactItems: [
        { Put: { TableName: 'main', Item: key('E', '1'), ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          ConditionCheck: {
            TableName: 'main',
            Key: key('C', '1'),
            ConditionExpression: '#v = :v',
            ExpressionAttributeNames: { '#v': 'version' },
            ExpressionAttributeValues: { ':v': { N: '2' } },
          },
        },
      ],
    });

    expect(input).toEqual({
      TransactItems: [
        { Put: { TableName: 'main', Item: key('E', '1') } },
        {
          ConditionCheck: {
            TableName: 'main',
            Key: key('C', '1'),
            ConditionExpression: 'attribute_not_exists(#floorNever)',
            ExpressionAttributeNames: { '#floorNever': 'floor_never_written' },
          },
        },
      ],
    });
    expect(replayable('BatchGetItemCommand', { RequestItems: { main: { Keys: [key('A', 'B')] } } })).toEqual({
      RequestItems: { main: { Keys: [key('A', 'B')] } },
    });
  });

  it('lists each item the calls read or write once, by its key attributes', () => {
    const keys = touchedKeys(
      [
        call('GetItemCommand', { TableName: 'main', Key: key('A', '1') }),
        call('PutItemCommand', { TableName: 'main', Item: { ...key('A', '1'), email: { S: 'a@example.com' } } }),
        call('BatchGetItemCommand', { RequestItems: { main: { Keys: [key('B', '1'), key('B', '2')] } } }),
        call('TransactWriteItemsCommand', {
          TransactItems: [
            { Update: { TableName: 'main', Key: key('C', '1') } },
            { Delete: { TableName: 'main', Key: key('B', '2') } },
          ],
        }),
        call('BatchWriteItemCommand', { RequestItems: { main: [{ PutRequest: { Item: key('D', '1') } }] } }),
        call('GetItemCommand', { TableName: 'other', Key: key('Z', '1') }),
      ],
      'main',
      ['pk', 'sk'],
    );

    expect(keys).toEqual([key('A', '1'), key('B', '1'), key('B', '2'), key('C', '1'), key('D', '1')]);
  });
});
