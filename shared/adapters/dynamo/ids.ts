import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdEntity, Ids } from '../../platform.js';
import { keys } from './keys.js';

/** Integer ids from the counter item: one `ADD n` reserves a block of n ids in one write. */
export class DynamoIds implements Ids {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async next(entity: IdEntity, count = 1): Promise<number> {
    const out = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.counter(entity),
        UpdateExpression: 'ADD #v :n',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': count },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const last = Number(out.Attributes?.['value']);
    return last - count + 1;
  }
}
