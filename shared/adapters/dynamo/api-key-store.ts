import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sendTransaction } from './transactions.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../domain/api-keys/api-key-store.js';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import { keys } from './keys.js';
import { stripKeys } from './items.js';

export class DynamoApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.apiKey(keyHash) }));
    return out.Item ? stripKeys<ApiKeyRecord>(out.Item) : undefined;
  }

  async rotate(client: ClientRecord, next: ApiKeyRecord, at: string): Promise<'rotated' | 'conflict'> {
    // Old key disabled, new key stored and the profile repointed in one transaction; the profile's current
    // key hash is the guard against two rotations racing each other. A transaction that only collided with
    // another in flight is retried (sendTransaction); once the other has committed, the guard fails: conflict.
    const command = new TransactWriteCommand({
        TransactItems: [
          this.disableKey(client.api_key_hash, at),
          {
            Put: {
              TableName: this.tableName,
              Item: { ...keys.apiKey(next.key_hash), ...keys.apiKeyListing(next.client_id, next.key_id), ...next },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: this.tableName,
              Key: keys.clientProfile(client.id),
              UpdateExpression:
                'SET api_key_id = :id, api_key_hash = :h, api_key_masked = :m, api_key_enabled = :t, updated_at = :at',
              ConditionExpression: 'api_key_hash = :old',
              ExpressionAttributeValues: {
                ':id': next.key_id,
                ':h': next.key_hash,
                ':m': next.masked_key,
                ':t': true,
                ':at': at,
                ':old': client.api_key_hash,
              },
            },
          },
        ],
      });
    try {
      await sendTransaction(this.db, command);
      return 'rotated';
    } catch (error) {
      const profileGuard = error instanceof TransactionCanceledException ? error.CancellationReasons?.[2]?.Code : undefined;
      if (profileGuard === 'ConditionalCheckFailed') return 'conflict';
      throw error;
    }
  }

  async disableCurrent(client: ClientRecord, at: string): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          this.disableKey(client.api_key_hash, at),
          {
            Update: {
              TableName: this.tableName,
              Key: keys.clientProfile(client.id),
              UpdateExpression: 'SET api_key_enabled = :f, updated_at = :at',
              ExpressionAttributeValues: { ':f': false, ':at': at },
            },
          },
        ],
      }),
    );
  }

  /** The transaction action that turns a key off (rotation and disabling both end the current key this way). */
  private disableKey(keyHash: string, at: string) {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.apiKey(keyHash),
        UpdateExpression: 'SET enabled = :f, disabled_at = :at',
        ExpressionAttributeValues: { ':f': false, ':at': at },
      },
    };
  }
}
