import { describe, expect, it } from 'vitest';
import { type CapturedCall, touchedKeys } from '../../../../scripts/bench/engine-floor.js';

const key = (pk: string, sk: string) => ({ pk: { S: pk }, sk: { S: sk } });
const call = (command: string, input: Record<string, unknown>): CapturedCall => ({
  command,
  input,
  group: undefined,
  startedAt: 0,
  endedAt: 1,
});

describe('engine floor replay', () => {
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
