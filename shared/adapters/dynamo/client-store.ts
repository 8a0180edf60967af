import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../../domain/api-keys/api-key-store.js';
import type {
  ClientRecord,
  ClientStatus,
  ClientStore,
  DeliverabilityBaseline,
} from '../../domain/clients/client-store.js';
import type { RateLimitOverride } from '../../domain/rate-limits/rate-policy.js';
import { keys } from './keys.js';
import { queryAll } from './query-all.js';
import { TABLE_KEYS } from './table-definition.js';
import { stripKeys } from './items.js';

export class DynamoClientStore implements ClientStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(client: ClientRecord, key: ApiKeyRecord): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...keys.clientProfile(client.id), ...keys.clientListing(client.id), ...client },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: { ...keys.apiKey(key.key_hash), ...keys.apiKeyListing(key.client_id, key.key_id), ...key },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  }

  async get(clientId: number): Promise<ClientRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.clientProfile(clientId) }));
    return out.Item ? stripKeys<ClientRecord>(out.Item) : undefined;
  }

  async list(): Promise<ClientRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: TABLE_KEYS.gsi1.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi1.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.clientListingPk },
    });
    return items.map((item) => stripKeys<ClientRecord>(item));
  }

  async pauseSending(clientId: number, at: string, reason: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.clientProfile(clientId),
          UpdateExpression: 'SET sending_paused_at = :at, sending_paused_reason = :reason, updated_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(sending_paused_at)',
          ExpressionAttributeValues: { ':at': at, ':reason': reason },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async resumeSending(clientId: number, baseline: DeliverabilityBaseline): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.clientProfile(clientId),
          UpdateExpression:
            'SET sending_resumed = :baseline, updated_at = :at REMOVE sending_paused_at, sending_paused_reason',
          ConditionExpression: 'attribute_exists(sending_paused_at)',
          ExpressionAttributeValues: { ':baseline': baseline, ':at': baseline.at },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async setStatus(clientId: number, status: ClientStatus, at: string): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: keys.clientProfile(clientId),
              UpdateExpression: 'SET #s = :s, updated_at = :at',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':s': status, ':at': at },
            },
          },
        ],
      }),
    );
  }

  async setRateLimits(clientId: number, limits: RateLimitOverride | undefined, at: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.clientProfile(clientId),
        UpdateExpression: limits ? 'SET rate_limits = :r, updated_at = :at' : 'REMOVE rate_limits SET updated_at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: limits ? { ':r': limits, ':at': at } : { ':at': at },
      }),
    );
  }
}
