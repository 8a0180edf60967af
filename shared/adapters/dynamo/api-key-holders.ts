import type { ApiKeyRecord, KeyDisabledReason } from '../../domain/api-keys/api-key-store.js';
import { holdersOf } from '../../domain/api-keys/key-holders.js';
import { ROLES } from '../../domain/users/roles.js';
import { accountKeys, keys } from './keys.js';

/**
 * The transaction items that tie an API key to the users it belongs to (its creator, its personal holder): an index
 * item per user under the client (`USERAPIKEY#<user>#<key digest>`), read consistently by the user's removal or
 * demotion, and a raise of the user's `api_key_version`, so that a removal or demotion that read the user before the
 * key existed fails (its condition names that version) instead of missing the key. The raise is conditioned on the user
 * still existing with a role that may hold keys: a key is never made for a user on its way out.
 */
export function holderLinks(tableName: string, key: ApiKeyRecord) {
  return holdersOf(key).flatMap((userId) => [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...accountKeys.userApiKey(key.client_id, userId, key.key_hash),
          key_hash: key.key_hash,
          key_id: key.key_id,
        },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: accountKeys.user(key.client_id, userId),
        UpdateExpression: 'ADD api_key_version :one',
        ConditionExpression: 'attribute_exists(pk) AND #role IN (:owner, :admin)',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':one': 1, ':owner': ROLES.owner, ':admin': ROLES.admin },
      },
    },
  ]);
}

/** Positions (in `holderLinks`' items, from `offset`) of the user raises: a failed one means the holder is gone. */
export const holderRaisePositions = (key: ApiKeyRecord, offset: number): number[] =>
  holdersOf(key).map((_, i) => offset + i * 2 + 1);

/** Deletes of a key's index items (the key is deleted or replaced by its rotation). */
export const holderUnlinks = (tableName: string, key: ApiKeyRecord) =>
  holdersOf(key).map((userId) => ({
    Delete: { TableName: tableName, Key: accountKeys.userApiKey(key.client_id, userId, key.key_hash) },
  }));

/**
 * Turns a key off because its holder was removed or demoted. `disabled_at` keeps an earlier disabling's time; the
 * reason is what refuses re-enabling it (manage-api-keys.ts). Only while the key exists: its index item and the key
 * are deleted together, so an index item always names a key.
 */
export const holderDisable = (tableName: string, keyHash: string, reason: KeyDisabledReason, at: string) => ({
  Update: {
    TableName: tableName,
    Key: keys.apiKey(keyHash),
    UpdateExpression: 'SET enabled = :f, disabled_reason = :reason, disabled_at = if_not_exists(disabled_at, :at)',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':f': false, ':reason': reason, ':at': at },
  },
});
