import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord, SessionStore } from '../../domain/auth/session-store.js';
import { stripKeys } from './items.js';
import { sessionKey } from './keys.js';

export const epochSeconds = (iso: string): number => Math.ceil(Date.parse(iso) / 1000);

/** The TTL (`expires_at`, epoch seconds) of a session: its earlier expiry; the code checks both anyway. */
export const sessionTtl = (idle: string, absolute: string): number =>
  Math.min(epochSeconds(idle), epochSeconds(absolute));

/**
 * What a request made with a session does to it: one GetItem, and now and then an UpdateItem of its idle expiry. Its
 * own class, so that the functions that only authenticate carry nothing of sign-in (the functions' bundle budget).
 */
export class DynamoSessionReads implements Pick<SessionStore, 'getSession' | 'touch'> {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  async getSession(sessionHash: string): Promise<SessionRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: sessionKey(sessionHash) }));
    if (!out.Item) return undefined;
    const { expires_at: _ttl, ...session } = stripKeys<SessionRecord & { expires_at: number }>(out.Item);
    return session;
  }

  async touch(session: SessionRecord, lastSeenAt: string, idleExpiresAt: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: sessionKey(session.session_hash),
          UpdateExpression: 'SET last_seen_at = :seen, idle_expires_at = :idle, expires_at = :ttl',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':seen': lastSeenAt,
            ':idle': idleExpiresAt,
            ':ttl': sessionTtl(idleExpiresAt, session.absolute_expires_at),
          },
        }),
      );
    } catch (error) {
      // Ended meanwhile (sign-out, removal): the next request finds no session.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
