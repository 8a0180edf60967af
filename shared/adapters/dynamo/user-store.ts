import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  GetCommand,
  type BatchWriteCommandInput,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type {
  CreateUserOutcome,
  UserChange,
  UserRecord,
  UserRoster,
  UserStore,
} from '../../domain/users/user-store.js';
import type { KeyDisabledReason } from '../../domain/api-keys/api-key-store.js';
import { isHeldBy } from '../../domain/api-keys/key-holders.js';
import { ROLES, roleGrants, type Role } from '../../domain/users/roles.js';
import { holderDisable } from './api-key-holders.js';
import { stripKeys } from './items.js';
import { accountKeys, clientPk, keys, sessionKey, type ItemKey } from './keys.js';
import { TABLE_KEYS } from './table-definition.js';
import { queryAll } from './query-all.js';
import { sendTransaction } from './transactions.js';

/** The positions of a cancelled transaction's items whose condition failed. */
const failedConditions = (error: unknown): number[] =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []))
    : [];

/** Sessions a user transaction deletes itself; any beyond are deleted just before it (BatchWriteItem, 25 a call). */
const SESSIONS_IN_TRANSACTION = 45;

/** DynamoDB's limit of actions in one TransactWriteItems. */
const TRANSACTION_ITEMS = 100;

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * Users under `CLIENT#<id>` / `USER#<id>`, their count and owner in `USERS`, their address in a global `USEREMAIL#`
 * lock, and an index item per session (`USERSESSION#<user>#<session digest>`) that removal and role changes read
 * consistently to end the user's sessions in their own transaction.
 */
export class DynamoUserStore implements UserStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, userId: number): Promise<UserRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: accountKeys.user(clientId, userId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<UserRecord>(out.Item) : undefined;
  }

  async list(clientId: number): Promise<UserRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientPk(clientId), ':prefix': accountKeys.userSkPrefix },
      ConsistentRead: true,
    });
    return items.map((item) => stripKeys<UserRecord>(item));
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const lock = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: accountKeys.userEmailLock(email) }),
    );
    const owner = lock.Item as { client_id?: number; user_id?: number } | undefined;
    if (!owner?.client_id || !owner.user_id) return undefined;
    return this.get(owner.client_id, owner.user_id);
  }

  async roster(clientId: number): Promise<UserRoster> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: accountKeys.userCount(clientId), ConsistentRead: true }),
    );
    return { count: Number(out.Item?.['n'] ?? 0), owner_id: out.Item?.['owner_id'] as number | undefined };
  }

  async create(user: UserRecord, maxUsers: number): Promise<CreateUserOutcome> {
    const owner = user.role === ROLES.owner;
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: this.tableName,
            Item: { ...accountKeys.user(user.client_id, user.id), ...user },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...accountKeys.userEmailLock(user.email), client_id: user.client_id, user_id: user.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: accountKeys.userCount(user.client_id),
            UpdateExpression: owner ? 'ADD n :one SET owner_id = :id' : 'ADD n :one',
            ConditionExpression: owner
              ? '(attribute_not_exists(n) OR n < :max) AND attribute_not_exists(owner_id)'
              : 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': maxUsers, ...(owner ? { ':id': user.id } : {}) },
          },
        },
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'created';
    } catch (error) {
      const failed = failedConditions(error);
      if (failed.includes(1)) return 'email_taken';
      if (failed.includes(2)) return 'limit';
      throw error;
    }
  }

  async setRole(user: UserRecord, role: Role, at: string): Promise<UserChange<'updated'>> {
    const ends = await this.grantEnds(user, 1, roleGrants(role, 'keys') ? undefined : 'holder_demoted', at);
    const command = new TransactWriteCommand({ TransactItems: [this.roleUpdate(user, role, at), ...ends.items] });
    try {
      await sendTransaction(this.db, command);
      return { outcome: 'updated', disabledKeys: ends.disabledKeys };
    } catch (error) {
      if (!failedConditions(error).includes(0)) throw error;
      return {
        outcome: (await this.get(user.client_id, user.id)) ? 'stale' : 'missing',
        disabledKeys: ends.disabledBefore,
      };
    }
  }

  async transferOwnership(current: UserRecord, next: UserRecord, at: string): Promise<'transferred' | 'stale'> {
    const [endsCurrent, endsNext] = await Promise.all([
      this.sessionDeletes(current, 20),
      this.sessionDeletes(next, 20),
    ]);
    const command = new TransactWriteCommand({
      TransactItems: [
        this.roleUpdate(next, ROLES.owner, at),
        this.roleUpdate(current, ROLES.admin, at),
        {
          Update: {
            TableName: this.tableName,
            Key: accountKeys.userCount(current.client_id),
            UpdateExpression: 'SET owner_id = :next',
            ConditionExpression: 'owner_id = :current',
            ExpressionAttributeValues: { ':next': next.id, ':current': current.id },
          },
        },
        ...endsCurrent,
        ...endsNext,
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'transferred';
    } catch (error) {
      if (failedConditions(error).length === 0) throw error;
      return 'stale';
    }
  }

  async remove(user: UserRecord, at: string): Promise<UserChange<'removed'>> {
    const ends = await this.grantEnds(user, 3, 'holder_removed', at);
    const version = versionCondition(user);
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: this.tableName,
            Key: accountKeys.user(user.client_id, user.id),
            ConditionExpression: `attribute_exists(pk) AND #role <> :owner AND ${version.expression}`,
            ExpressionAttributeNames: { '#role': 'role' },
            ExpressionAttributeValues: { ':owner': ROLES.owner, ...version.values },
          },
        },
        { Delete: { TableName: this.tableName, Key: accountKeys.userEmailLock(user.email) } },
        {
          Update: {
            TableName: this.tableName,
            Key: accountKeys.userCount(user.client_id),
            UpdateExpression: 'ADD n :minus',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
        ...ends.items,
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return { outcome: 'removed', disabledKeys: ends.disabledKeys };
    } catch (error) {
      if (!failedConditions(error).includes(0)) throw error;
      return {
        outcome: (await this.get(user.client_id, user.id)) ? 'stale' : 'missing',
        disabledKeys: ends.disabledBefore,
      };
    }
  }

  /**
   * What ends with a user, as transaction items after `fixed` items of the caller's: with `keysEnd`, the API keys it
   * created or holds are disabled (and their index items deleted), then its sessions are deleted with their index
   * items, as many as the 100 actions allow. The rest is done just before the transaction: the sessions beyond, and —
   * only for a user holding more than about 48 keys — the keys beyond (disabled in transactions of their own; if
   * the user's transaction then fails they stay disabled: `disabledBefore`). Reads, in one wave: the session index, the
   * key index (consistent) and the client's key listing (gsi1), which finds keys made before the key index existed.
   */
  private async grantEnds(
    user: UserRecord,
    fixed: number,
    keysEnd: KeyDisabledReason | undefined,
    at: string,
  ): Promise<{ items: TransactItem[]; disabledKeys: string[]; disabledBefore: string[] }> {
    const [sessions, linked, listed] = await Promise.all([
      this.indexOf(user, accountKeys.userSessionPrefix(user.id), 'pk, sk, session_hash'),
      keysEnd ? this.indexOf(user, accountKeys.userApiKeyPrefix(user.id), 'pk, sk, key_hash') : [],
      keysEnd ? this.listedKeysOf(user) : [],
    ]);
    const linkedHashes = new Set(linked.map((item) => item['key_hash'] as string));
    const keyActions: { hash: string; items: TransactItem[] }[] = keysEnd
      ? [
          ...linked.map((item) => ({
            hash: item['key_hash'] as string,
            items: [
              holderDisable(this.tableName, item['key_hash'] as string, keysEnd, at),
              { Delete: { TableName: this.tableName, Key: { pk: item['pk'] as string, sk: item['sk'] as string } } },
            ],
          })),
          ...listed
            .filter((hash) => !linkedHashes.has(hash))
            .map((hash) => ({ hash, items: [holderDisable(this.tableName, hash, keysEnd, at)] })),
        ]
      : [];
    const room = TRANSACTION_ITEMS - fixed;
    // Keys first: they stay in the caller's transaction; only a user with very many keys has some disabled before.
    let split = 0;
    for (let n = keyActions.reduce((sum, a) => sum + a.items.length, 0); n > room; split += 1)
      n -= keyActions[split]!.items.length;
    const before = keyActions.slice(0, split);
    // Independent of each other: one parallel wave.
    const chunks: (typeof before)[] = [];
    for (let i = 0; i < before.length; i += TRANSACTION_ITEMS / 2)
      chunks.push(before.slice(i, i + TRANSACTION_ITEMS / 2));
    await Promise.all(
      chunks.map((chunk) =>
        sendTransaction(this.db, new TransactWriteCommand({ TransactItems: chunk.flatMap((a) => a.items) })),
      ),
    );
    const keyItems = keyActions.slice(split).flatMap((a) => a.items);
    const sessionRoom = Math.min(SESSIONS_IN_TRANSACTION, Math.floor((room - keyItems.length) / 2));
    const sessionItems = await this.endSessions(sessions, sessionRoom);
    return {
      items: [...keyItems, ...sessionItems],
      disabledKeys: keyActions.map((a) => a.hash),
      disabledBefore: before.map((a) => a.hash),
    };
  }

  /** Index items of the user under the client's partition (sessions or keys), read consistently. */
  private indexOf(user: UserRecord, prefix: string, projection: string): Promise<Record<string, unknown>[]> {
    return queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientPk(user.client_id), ':prefix': prefix },
      ProjectionExpression: projection,
      ConsistentRead: true,
    });
  }

  /** Digests of the client's enabled keys the user created or holds, from the key listing (gsi1). */
  private async listedKeysOf(user: UserRecord): Promise<string[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: TABLE_KEYS.gsi1.name,
      KeyConditionExpression: '#pk = :pk',
      ProjectionExpression: 'key_hash, enabled, created_by, personal_for',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi1.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.apiKeyListing(user.client_id, 0).gsi1pk },
    });
    return items
      .filter(
        (item) => item['enabled'] === true && isHeldBy(item as { created_by?: number; personal_for?: number }, user.id),
      )
      .map((item) => item['key_hash'] as string);
  }

  /** The role change of a user as read: any change or sign-in since (its `session_version`) makes it fail. */
  private roleUpdate(user: UserRecord, role: Role, at: string) {
    const version = versionCondition(user);
    return {
      Update: {
        TableName: this.tableName,
        Key: accountKeys.user(user.client_id, user.id),
        UpdateExpression: 'SET #role = :role, updated_at = :at ADD session_version :one',
        ConditionExpression: `attribute_exists(pk) AND #role = :was AND ${version.expression}`,
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role, ':at': at, ':one': 1, ':was': user.role, ...version.values },
      },
    };
  }

  /**
   * Deletes of the user's sessions and their index items, read consistently; all but the newest `inTransaction` are
   * deleted now (a user signed in on very many browsers), the rest returned for the caller's transaction.
   */
  private async sessionDeletes(user: UserRecord, inTransaction = SESSIONS_IN_TRANSACTION) {
    return this.endSessions(
      await this.indexOf(user, accountKeys.userSessionPrefix(user.id), 'pk, sk, session_hash'),
      inTransaction,
    );
  }

  /** Deletes all but the newest `inTransaction` of these sessions now; the deletes of the rest, for a transaction. */
  private async endSessions(index: Record<string, unknown>[], inTransaction: number): Promise<TransactItem[]> {
    const keysOf = (item: Record<string, unknown>): ItemKey[] => [
      { pk: item['pk'] as string, sk: item['sk'] as string },
      sessionKey(item['session_hash'] as string),
    ];
    const extra = index.slice(0, Math.max(0, index.length - inTransaction)).flatMap(keysOf);
    for (let i = 0; i < extra.length; i += 25) {
      let request: BatchWriteCommandInput['RequestItems'] = {
        [this.tableName]: extra.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })),
      };
      for (let attempt = 0; request && Object.keys(request).length > 0; attempt += 1) {
        if (attempt === 5)
          throw new Error("could not delete the user's sessions: BatchWriteItem kept items unprocessed");
        ({ UnprocessedItems: request } = await this.db.send(new BatchWriteCommand({ RequestItems: request })));
      }
    }
    return index
      .slice(extra.length / 2)
      .flatMap(keysOf)
      .map((Key) => ({ Delete: { TableName: this.tableName, Key } }));
  }
}

/**
 * `session_version` and `api_key_version` as read: equal, or still absent. A sign-in raises the first, a key made for the
 * user the second: a change decided on an older read of the user fails instead of missing that session or key.
 */
function versionCondition(user: UserRecord): { expression: string; values: Record<string, number> } {
  const session: { expression: string; values: Record<string, number> } =
    user.session_version === undefined
      ? { expression: 'attribute_not_exists(session_version)', values: {} }
      : { expression: 'session_version = :version', values: { ':version': user.session_version } };
  if (user.api_key_version === undefined)
    return { expression: `${session.expression} AND attribute_not_exists(api_key_version)`, values: session.values };
  return {
    expression: `${session.expression} AND api_key_version = :keyVersion`,
    values: { ...session.values, ':keyVersion': user.api_key_version },
  };
}
