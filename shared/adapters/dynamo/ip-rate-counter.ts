import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IpRateCounter, IpRateWindow } from '../../domain/rate-limits/ip-limit.js';
import { keys } from './keys.js';

/** Attribute of a window item that holds its count. */
const COUNT = 'n';

/** The window's count in one `UpdateItem` (`ADD`, `UPDATED_NEW`), as the per-client counter (rate-counter.ts). */
export class DynamoIpRateCounter implements IpRateCounter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(window: IpRateWindow): Promise<number> {
    const out = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.ipRateWindow(window.ipHash, window.startsAt),
        UpdateExpression: 'ADD #n :one SET expires_at = if_not_exists(expires_at, :expires)',
        ExpressionAttributeNames: { '#n': COUNT },
        ExpressionAttributeValues: { ':one': 1, ':expires': window.expiresAt },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const count = out.Attributes?.[COUNT];
    if (typeof count !== 'number') throw new Error('The IP rate window update returned no count');
    return count;
  }
}
