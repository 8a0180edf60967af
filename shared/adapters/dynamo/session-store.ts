import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { DynamoSessionReads, epochSeconds, sessionTtl } from './session-reads.js';
import type {
  SessionRecord,
  SessionStore,
  SignInLinkRecord,
  StartSessionOutcome,
  ThrottleKind,
} from '../../domain/auth/session-store.js';
import type { UserRecord } from '../../domain/users/user-store.js';
import { stripKeys } from './items.js';
import { accountKeys, sessionKey } from './keys.js';
import { sendTransaction } from './transactions.js';

/** Sign-in links, sessions and the sign-in throttle, each under the digest of its secret or address. */
export class DynamoSessionStore extends DynamoSessionReads implements SessionStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName);
  }

  async saveLink(link: SignInLinkRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...accountKeys.signInLink(link.token_hash), ...link, expires_at: epochSeconds(link.valid_until) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getLink(tokenHash: string): Promise<SignInLinkRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: accountKeys.signInLink(tokenHash), ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    const { expires_at: _ttl, ...link } = stripKeys<SignInLinkRecord & { expires_at: number }>(out.Item);
    return link;
  }

  async startSession(link: SignInLinkRecord, user: UserRecord, session: SessionRecord): Promise<StartSessionOutcome> {
    const version =
      user.session_version === undefined
        ? { expression: 'attribute_not_exists(session_version)', values: {} }
        : { expression: 'session_version = :version', values: { ':version': user.session_version } };
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: this.tableName,
            Key: accountKeys.signInLink(link.token_hash),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...sessionKey(session.session_hash),
              ...session,
              expires_at: sessionTtl(session.idle_expires_at, session.absolute_expires_at),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...accountKeys.userSession(session.client_id, session.user_id, session.session_hash),
              session_hash: session.session_hash,
              created_at: session.created_at,
              expires_at: epochSeconds(session.absolute_expires_at),
            },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: accountKeys.user(user.client_id, user.id),
            UpdateExpression: 'SET last_sign_in_at = :at ADD session_version :one',
            ConditionExpression: `attribute_exists(pk) AND ${version.expression}`,
            ExpressionAttributeValues: { ':at': session.created_at, ':one': 1, ...version.values },
          },
        },
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'started';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'used';
      if (reasons[3]?.Code === 'ConditionalCheckFailed') return 'stale';
      throw error;
    }
  }

  async end(session: SessionRecord): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.tableName, Key: sessionKey(session.session_hash) } },
          {
            Delete: {
              TableName: this.tableName,
              Key: accountKeys.userSession(session.client_id, session.user_id, session.session_hash),
            },
          },
        ],
      }),
    );
  }

  async countSignIn(kind: ThrottleKind, valueHash: string, windowStart: number, expiresAt: number): Promise<number> {
    const out = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: accountKeys.signInWindow(kind, valueHash, windowStart),
        UpdateExpression: 'ADD n :one SET expires_at = if_not_exists(expires_at, :ttl)',
        ExpressionAttributeValues: { ':one': 1, ':ttl': expiresAt },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.['n'] ?? 1);
  }
}
