import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../../domain/api-keys/api-key-store.js';
import type { AuthReads } from '../../domain/auth/authenticate.js';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import { stripKeys } from './items.js';
import { keys } from './keys.js';
import { DynamoSessionReads } from './session-reads.js';

/**
 * Everything the authenticator reads — an API key by digest (and its hourly `last_used_at`), a client profile, a
 * session — and nothing else: every
 * authenticated function carries this instead of the client, key and session stores (the functions' bundle budget).
 */
export class DynamoAuthReads extends DynamoSessionReads implements AuthReads {
  async getByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.apiKey(keyHash) }));
    return out.Item ? stripKeys<ApiKeyRecord>(out.Item) : undefined;
  }

  async markUsed(keyHash: string, at: string, staleBefore: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.apiKey(keyHash),
          UpdateExpression: 'SET last_used_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :stale)',
          ExpressionAttributeValues: { ':at': at, ':stale': staleBefore },
        }),
      );
    } catch (error) {
      // Another container stamped it this hour, or the key is gone: nothing to do.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /** A client profile (`get`, as ClientStore names it). */
  async get(clientId: number): Promise<ClientRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.clientProfile(clientId) }));
    return out.Item ? stripKeys<ClientRecord>(out.Item) : undefined;
  }
}
