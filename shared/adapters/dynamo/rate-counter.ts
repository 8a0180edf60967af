import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RateCounter, RateWindow } from '../../domain/rate-limits/rate-counter.js';
import { keys } from './keys.js';

/** Attribute of a rate window item that holds its count. */
const COUNT = 'n';

/**
 * The window's count in one `UpdateItem`: `ADD` creates the item at 1 or raises it, atomically, and `UPDATED_NEW`
 * answers the count with this request in it. No condition: a refused request is counted too, which is what stops a
 * second container's requests as well (the limiter remembers a full window and stops writing).
 */
export class DynamoRateCounter implements RateCounter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(window: RateWindow): Promise<number> {
    const out = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.rateWindow(window.clientId, window.policy, window.startsAt),
        UpdateExpression: 'ADD #n :one SET expires_at = if_not_exists(expires_at, :expires)',
        ExpressionAttributeNames: { '#n': COUNT },
        ExpressionAttributeValues: { ':one': 1, ':expires': window.expiresAt },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const count = out.Attributes?.[COUNT];
    if (typeof count !== 'number') throw new Error('The rate window update returned no count');
    return count;
  }
}
