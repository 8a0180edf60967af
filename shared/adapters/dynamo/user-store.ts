import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, type BatchWriteCommandInput, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CreateUserOutcome, UserRecord, UserRoster, UserStore } from '../../domain/users/user-store.js';
import { ROLES, type Role } from '../../domain/users/roles.js';
import { stripKeys } from './items.js';
import { accountKeys, clientPk, sessionKey, type ItemKey } from './keys.js';
import { queryAll } from './query-all.js';
import { sendTransaction } from './transactions.js';

/** The positions of a cancelled transaction's items whose condition failed. */
const failedConditions = (error: unknown): number[] =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []))
    : [];

/** Sessions a user transaction deletes itself; any beyond are deleted just before it (BatchWriteItem, 25 a call). */
const SESSIONS_IN_TRANSACTION = 45;

/**
 * Users under `CLIENT#<id>` / `USER#<id>`, their count and owner in `USERS`, their address in a global `USEREMAIL#`
 * lock, and an index item per session (`USERSESSION#<user>#<session digest>`) that removal and role changes read
 * consistently to end the user's sessions in their own transaction (issue 23 §1).
 */
export class DynamoUserStore implements UserStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, userId: number): Promise<UserRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: accountKeys.user(clientId, userId), ConsistentRead: true }));
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
    const lock = await this.db.send(new GetCommand({ TableName: this.tableName, Key: accountKeys.userEmailLock(email) }));
    const owner = lock.Item as { client_id?: number; user_id?: number } | undefined;
    if (!owner?.client_id || !owner.user_id) return undefined;
    return this.get(owner.client_id, owner.user_id);
  }

  async roster(clientId: number): Promise<UserRoster> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: accountKeys.userCount(clientId), ConsistentRead: true }));
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

  async setRole(user: UserRecord, role: Role, at: string): Promise<'updated' | 'stale' | 'missing'> {
    const ends = await this.sessionDeletes(user);
    const command = new TransactWriteCommand({ TransactItems: [this.roleUpdate(user, role, at), ...ends] });
    try {
      await sendTransaction(this.db, command);
      return 'updated';
    } catch (error) {
      if (!failedConditions(error).includes(0)) throw error;
      return (await this.get(user.client_id, user.id)) ? 'stale' : 'missing';
    }
  }

  async transferOwnership(current: UserRecord, next: UserRecord, at: string): Promise<'transferred' | 'stale'> {
    const [endsCurrent, endsNext] = await Promise.all([this.sessionDeletes(current, 20), this.sessionDeletes(next, 20)]);
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

  async remove(user: UserRecord): Promise<'removed' | 'stale' | 'missing'> {
    const ends = await this.sessionDeletes(user, SESSIONS_IN_TRANSACTION - 1);
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
        ...ends,
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'removed';
    } catch (error) {
      if (!failedConditions(error).includes(0)) throw error;
      return (await this.get(user.client_id, user.id)) ? 'stale' : 'missing';
    }
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
    const index = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientPk(user.client_id), ':prefix': accountKeys.userSessionPrefix(user.id) },
      ProjectionExpression: 'pk, sk, session_hash',
      ConsistentRead: true,
    });
    const keysOf = (item: Record<string, unknown>): ItemKey[] => [
      { pk: item['pk'] as string, sk: item['sk'] as string },
      sessionKey(item['session_hash'] as string),
    ];
    const extra = index.slice(0, Math.max(0, index.length - inTransaction)).flatMap(keysOf);
    for (let i = 0; i < extra.length; i += 25) {
      let request: BatchWriteCommandInput['RequestItems'] = { [this.tableName]: extra.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) };
      for (let attempt = 0; request && Object.keys(request).length > 0; attempt += 1) {
        if (attempt === 5) throw new Error('could not delete the user\'s sessions: BatchWriteItem kept items unprocessed');
        ({ UnprocessedItems: request } = await this.db.send(new BatchWriteCommand({ RequestItems: request })));
      }
    }
    return index.slice(extra.length / 2).flatMap(keysOf).map((Key) => ({ Delete: { TableName: this.tableName, Key } }));
  }
}

/** `session_version` as read: equal, or still absent. */
function versionCondition(user: UserRecord): { expression: string; values: Record<string, number> } {
  return user.session_version === undefined
    ? { expression: 'attribute_not_exists(session_version)', values: {} }
    : { expression: 'session_version = :version', values: { ':version': user.session_version } };
}
