import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys.js';

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * A transaction's check that the client's journey index is still at the version read (0: none exists yet): a write
 * that refused to run because of what live journeys use (a template they send, a segment they start on) holds only
 * if no journey was published between its read and its write.
 */
export const journeyIndexUnchanged = (tableName: string, clientId: number, version: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName,
    Key: keys.journeyIndex(clientId),
    ...(version === 0
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: '#v = :v',
          ExpressionAttributeNames: { '#v': 'version' },
          ExpressionAttributeValues: { ':v': version },
        }),
  },
});
