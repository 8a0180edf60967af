import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SentEmailLogRecord, SentEmailRecord } from '../../domain/sent-emails/sent-email-record.js';
import type { SentEmailStore } from '../../domain/sent-emails/sent-email-store.js';
import { stripKeys } from './items.js';
import { keys } from './keys.js';
import { sentEmailOf } from './sent-email-item.js';
import { queryAll } from './query-all.js';

/** A sent e-mail and its logs share the partition `SENT#<client>#<uuid>`: the email is `SENT`, logs `LOG#<ts>#<id>`. */
export class DynamoSentEmailStore implements SentEmailStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, sentEmailId: string): Promise<SentEmailRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.sentEmail(clientId, sentEmailId) }),
    );
    return out.Item ? sentEmailOf(out.Item) : undefined;
  }

  async addLog(clientId: number, sentEmailId: string, log: SentEmailLogRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.sentEmailLogItem(clientId, sentEmailId, log.created_at, log.id), ...log },
      }),
    );
  }

  async getWithLogs(clientId: number, sentEmailId: string) {
    const key = keys.sentEmail(clientId, sentEmailId);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': key.pk },
      ConsistentRead: true,
    });
    const email = items.find((item) => item['sk'] === key.sk);
    if (!email) return undefined;
    const logs = items
      .filter((item) => String(item['sk']).startsWith(keys.sentEmailLogPrefix))
      .map((item) => stripKeys<SentEmailLogRecord>(item));
    return { email: sentEmailOf(email), logs };
  }
}
