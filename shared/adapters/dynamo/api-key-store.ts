import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { queryAll } from './query-all.js';
import { TABLE_KEYS } from './table-definition.js';
import { sendTransaction } from './transactions.js';
import type { ApiKeyChanges, ApiKeyRecord, ApiKeyStore } from '../../domain/api-keys/api-key-store.js';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import { keys } from './keys.js';
import { stripKeys } from './items.js';
import { holderLinks, holderRaisePositions, holderUnlinks } from './api-key-holders.js';
import { holdersOf } from '../../domain/api-keys/key-holders.js';

/** Whether a cancelled transaction failed on one of `positions`. */
const failedAt = (error: unknown, positions: number[]): boolean =>
  error instanceof TransactionCanceledException &&
  positions.some((i) => error.CancellationReasons?.[i]?.Code === 'ConditionalCheckFailed');

export class DynamoApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.apiKey(keyHash) }));
    return out.Item ? stripKeys<ApiKeyRecord>(out.Item) : undefined;
  }

  async rotate(
    client: ClientRecord,
    next: ApiKeyRecord,
    at: string,
    old?: ApiKeyRecord,
  ): Promise<'rotated' | 'conflict' | 'holder_gone'> {
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
        ...holderLinks(this.tableName, next),
        ...(old ? holderUnlinks(this.tableName, old) : []),
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'rotated';
    } catch (error) {
      const profileGuard =
        error instanceof TransactionCanceledException ? error.CancellationReasons?.[2]?.Code : undefined;
      if (profileGuard === 'ConditionalCheckFailed') return 'conflict';
      if (failedAt(error, holderRaisePositions(next, 3))) return 'holder_gone';
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

  async list(clientId: number): Promise<ApiKeyRecord[]> {
    const listing = keys.apiKeyListing(clientId, 0);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: TABLE_KEYS.gsi1.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi1.partitionKey },
      ExpressionAttributeValues: { ':pk': listing.gsi1pk },
    });
    return items.map((item) => stripKeys<ApiKeyRecord>(item)).sort((a, b) => a.key_id - b.key_id);
  }

  async create(key: ApiKeyRecord): Promise<'created' | 'holder_gone'> {
    const put = {
      TableName: this.tableName,
      Item: { ...keys.apiKey(key.key_hash), ...keys.apiKeyListing(key.client_id, key.key_id), ...key },
      ConditionExpression: 'attribute_not_exists(pk)',
    };
    // A key nobody holds (the admin CLI's) is one PutItem; a user's key is written with its index item and the user's raise.
    if (holdersOf(key).length === 0) {
      await this.db.send(new PutCommand(put));
      return 'created';
    }
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({ TransactItems: [{ Put: put }, ...holderLinks(this.tableName, key)] }),
      );
      return 'created';
    } catch (error) {
      if (failedAt(error, holderRaisePositions(key, 1))) return 'holder_gone';
      throw error;
    }
  }

  async replace(
    client: ClientRecord,
    old: ApiKeyRecord,
    next: ApiKeyRecord,
    at: string,
  ): Promise<'rotated' | 'conflict' | 'holder_gone'> {
    if (client.api_key_hash === old.key_hash) return this.rotate(client, next, at, old);
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            ...this.disableKey(old.key_hash, at).Update,
            ConditionExpression: 'enabled = :t',
            ExpressionAttributeValues: { ':f': false, ':at': at, ':t': true },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...keys.apiKey(next.key_hash), ...keys.apiKeyListing(next.client_id, next.key_id), ...next },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...holderLinks(this.tableName, next),
        ...holderUnlinks(this.tableName, old),
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'rotated';
    } catch (error) {
      const guard = error instanceof TransactionCanceledException ? error.CancellationReasons?.[0]?.Code : undefined;
      if (guard === 'ConditionalCheckFailed') return 'conflict';
      if (failedAt(error, holderRaisePositions(next, 2))) return 'holder_gone';
      throw error;
    }
  }

  async update(client: ClientRecord, key: ApiKeyRecord, changes: ApiKeyChanges, at: string): Promise<boolean> {
    const sets = ['updated_at = :at'];
    const values: Record<string, unknown> = { ':at': at, ':c': key.client_id };
    if (changes.label !== undefined) sets.push('label = :label'), (values[':label'] = changes.label);
    if (changes.enabled !== undefined) {
      sets.push('enabled = :enabled');
      values[':enabled'] = changes.enabled;
      if (!changes.enabled) sets.push('disabled_at = :at');
    }
    const keyUpdate = {
      TableName: this.tableName,
      Key: keys.apiKey(key.key_hash),
      UpdateExpression: `SET ${sets.join(', ')}${changes.enabled ? ' REMOVE disabled_at' : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND client_id = :c',
      ExpressionAttributeValues: values,
    };
    const current = changes.enabled !== undefined && client.api_key_hash === key.key_hash;
    try {
      if (!current) await this.db.send(new UpdateCommand(keyUpdate));
      else {
        await sendTransaction(
          this.db,
          new TransactWriteCommand({
            TransactItems: [{ Update: keyUpdate }, this.profileEnabled(client, changes.enabled!, at)],
          }),
        );
      }
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      if (
        error instanceof TransactionCanceledException &&
        error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed'
      )
        return false;
      throw error;
    }
  }

  async remove(client: ClientRecord, key: ApiKeyRecord, at: string): Promise<boolean> {
    const deletion = {
      TableName: this.tableName,
      Key: keys.apiKey(key.key_hash),
      ConditionExpression: 'attribute_exists(pk) AND client_id = :c',
      ExpressionAttributeValues: { ':c': key.client_id },
    };
    const current = client.api_key_hash === key.key_hash;
    const unlinks = holderUnlinks(this.tableName, key);
    try {
      if (!current && unlinks.length === 0) await this.db.send(new DeleteCommand(deletion));
      else {
        const profile = current ? [this.profileEnabled(client, false, at)] : [];
        await sendTransaction(
          this.db,
          new TransactWriteCommand({ TransactItems: [{ Delete: deletion }, ...profile, ...unlinks] }),
        );
      }
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      if (
        error instanceof TransactionCanceledException &&
        error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed'
      )
        return false;
      throw error;
    }
  }

  /** The profile's `api_key_enabled`, only while the profile still points at the same key. */
  private profileEnabled(client: ClientRecord, enabled: boolean, at: string) {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.clientProfile(client.id),
        UpdateExpression: 'SET api_key_enabled = :e, updated_at = :at',
        ConditionExpression: 'api_key_hash = :h',
        ExpressionAttributeValues: { ':e': enabled, ':at': at, ':h': client.api_key_hash },
      },
    };
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
