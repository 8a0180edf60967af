import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import type { SettingsBundle, SettingsRecord, SettingsStore } from '../../domain/settings/settings-store.js';
import type { SenderState } from '../../domain/domains/sender-state.js';
import type { ClientSending } from '../../domain/domains/sender-identities.js';
import { batchGetItems } from './batch-get.js';
import { stripKeys } from './items.js';
import { keys } from './keys.js';
import { sentCountOf } from './quota-counter.js';
import { senderSendingUpdate } from './sender-item.js';
import { QUOTA_SHARD_COUNT } from '../../domain/executions/quota-shards.js';

export class DynamoSettingsStore implements SettingsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * One strongly consistent BatchGetItem: settings row, client profile, sender state and the month's quota counter
   * shards.
   */
  async load(clientId: number, month: string): Promise<SettingsBundle> {
    const settingsKey = keys.settings(clientId);
    const profileKey = keys.clientProfile(clientId);
    const senderKey = keys.sender(clientId);
    const quotaKeys = Array.from({ length: QUOTA_SHARD_COUNT }, (_, shard) => keys.quota(clientId, month, shard));
    const items = await batchGetItems(this.db, this.tableName, [settingsKey, profileKey, senderKey, ...quotaKeys], {
      consistentRead: true,
    });
    const byKey = new Map(items.map((item) => [`${String(item['pk'])}\u0000${String(item['sk'])}`, item]));
    const read = (key: { pk: string; sk: string }) => byKey.get(`${key.pk}\u0000${key.sk}`);
    const settings = read(settingsKey);
    const profile = read(profileKey);
    const sender = read(senderKey);
    return {
      settings: settings ? stripKeys<SettingsRecord>(settings) : undefined,
      client: profile ? stripKeys<ClientRecord>(profile) : undefined,
      monthlyEmailsSent: quotaKeys.reduce((sum, key) => sum + sentCountOf(read(key)), 0),
      ...(sender ? { sender: senderStateOf(sender) } : {}),
    };
  }

  async recordSending(clientId: number, sending: ClientSending): Promise<void> {
    await this.db.send(new UpdateCommand(senderSendingUpdate(this.tableName, clientId, sending)));
  }

  async save(record: SettingsRecord, expectedVersion: number | undefined): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.settings(record.client_id), ...record },
          ...(expectedVersion === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#v = :v',
                ExpressionAttributeNames: { '#v': 'version' },
                ExpressionAttributeValues: { ':v': expectedVersion },
              }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

/** The sender state of its item (an item written before its first verified domain may lack the list). */
export function senderStateOf(item: Record<string, unknown>): SenderState {
  const state = stripKeys<SenderState>(item);
  return { ...state, verified_domains: state.verified_domains ?? [] };
}
