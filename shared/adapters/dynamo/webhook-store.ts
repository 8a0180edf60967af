import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookChanges, WebhookRecord, WebhookStore } from '../../domain/webhooks/webhook-store.js';
import { stripKeys } from './items.js';
import { clientPk, keys } from './keys.js';
import { queryAll } from './query-all.js';
import { sendTransaction } from './transactions.js';

const firstFailed = (error: unknown): number | undefined => {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const index = (error.CancellationReasons ?? []).findIndex((r) => r.Code === 'ConditionalCheckFailed');
  return index >= 0 ? index : undefined;
};

/**
 * Webhook endpoints under `CLIENT#<id>` / `WEBHOOK#<id>` (client configuration, written rarely), with the client's
 * endpoint count beside them (`WEBHOOKS`, `n`): create and delete move the count in the same transaction, so the
 * per-client limit holds however many requests race.
 */
export class DynamoWebhookStore implements WebhookStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, webhookId: number): Promise<WebhookRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.webhook(clientId, webhookId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<WebhookRecord>(out.Item) : undefined;
  }

  async list(clientId: number): Promise<WebhookRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientPk(clientId), ':prefix': keys.webhookSkPrefix },
      ConsistentRead: true,
    });
    return items.map((item) => stripKeys<WebhookRecord>(item));
  }

  async create(webhook: WebhookRecord, max: number): Promise<'created' | 'limit'> {
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.webhookCount(webhook.client_id),
            UpdateExpression: 'ADD n :one',
            ConditionExpression: 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': max },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...keys.webhook(webhook.client_id, webhook.id), ...webhook },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'created';
    } catch (error) {
      if (firstFailed(error) === 0) return 'limit';
      throw error;
    }
  }

  async update(
    clientId: number,
    webhookId: number,
    changes: WebhookChanges,
    at: string,
  ): Promise<WebhookRecord | undefined> {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':at': at };
    const sets = entries.map(([field, value], i) => {
      names[`#f${i}`] = field;
      values[`:v${i}`] = value;
      return `#f${i} = :v${i}`;
    });
    return this.conditionalUpdate(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhook(clientId, webhookId),
        // Enabling an endpoint (again) starts its health afresh: an auto-disabled one gets its 5 days back.
        UpdateExpression: `SET ${[...sets, 'updated_at = :at'].join(', ')}${changes.enabled === true ? ' REMOVE failing_since, disabled_reason, disabled_notice_pending' : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: entries.length > 0 ? names : undefined,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
  }

  async rotateSecret(
    clientId: number,
    webhookId: number,
    secret: string,
    previousExpiresAt: string,
    at: string,
  ): Promise<WebhookRecord | undefined> {
    // The right-hand `secret` is the value before this update: the current secret becomes the previous one atomically.
    return this.conditionalUpdate(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhook(clientId, webhookId),
        UpdateExpression:
          'SET previous_secret = secret, secret = :secret, previous_secret_expires_at = :expires, updated_at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':secret': secret, ':expires': previousExpiresAt, ':at': at },
        ReturnValues: 'ALL_NEW',
      }),
    );
  }

  async delete(clientId: number, webhookId: number): Promise<boolean> {
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: this.tableName,
            Key: keys.webhook(clientId, webhookId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: keys.webhookCount(clientId),
            UpdateExpression: 'ADD n :minus',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return true;
    } catch (error) {
      if (firstFailed(error) === 0) return false;
      throw error;
    }
  }

  private async conditionalUpdate(command: UpdateCommand): Promise<WebhookRecord | undefined> {
    try {
      const out = await this.db.send(command);
      return out.Attributes ? stripKeys<WebhookRecord>(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
