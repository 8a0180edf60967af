import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PaceMove, PaceOwner, PaceStore } from '../../domain/broadcasts/pace-store.js';
import { keys } from './keys.js';

/** The pace clocks `PACE#ALL / PACE` and `PACE#<client> / PACE`: one conditional UpdateItem a move, no read. */
export class DynamoPaceStore implements PaceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async advance(owner: PaceOwner, expected: number | undefined, to: number, now: number): Promise<PaceMove> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.paceClock(owner),
          UpdateExpression: 'SET #tat = :to',
          ConditionExpression:
            expected === undefined ? 'attribute_not_exists(#tat) OR #tat <= :now' : '#tat = :expected',
          ExpressionAttributeNames: { '#tat': 'tat' },
          // The clock as it is comes back with a failed condition: the next try needs no read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ExpressionAttributeValues: {
            ':to': to,
            ...(expected === undefined ? { ':now': now } : { ':expected': expected }),
          },
        }),
      );
      return { moved: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const tat = (error.Item as Record<string, { N?: string }> | undefined)?.['tat']?.N;
      return { moved: false, tat: tat === undefined ? now : Number(tat) };
    }
  }
}
