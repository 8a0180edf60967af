import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type {
  ClientRef,
  EndpointHealthChange,
  EventFacts,
  SentEmailFacts,
  WebhookAttemptRecord,
  WebhookMessageRecord,
  WebhookOutbox,
} from '../../domain/webhooks/webhook-outbox.js';
import { WEBHOOK_RETENTION_DAYS } from '../../domain/webhooks/webhook-outbox.js';
import type { WebhookRecord, WebhookStore } from '../../domain/webhooks/webhook-store.js';
import { batchGetItems } from './batch-get.js';
import { batchPutItems } from './batch-write.js';
import type { ConfigCache } from './config-cache.js';
import { stripKeys } from './items.js';
import { clientPk, keys, type ItemKey } from './keys.js';

const SENT_FACT_ATTRIBUTES = [
  'id',
  'client_id',
  'contact_id',
  'execution_id',
  'workflow_id',
  'email_template_id',
  'from_email',
  'to_email',
  'subject',
  'status',
  'created_at',
  'provider_message_id',
  'event_id',
  'erased_at',
] as const;
const EVENT_FACT_ATTRIBUTES = ['id', 'client_id', 'type', 'idempotency_key', 'created_at'] as const;

const expiresAt = (at: string): number => Math.floor(Date.parse(at) / 1000) + WEBHOOK_RETENTION_DAYS * 86_400;

/** The cache entry holding a client's endpoint list (no such item exists: the cache keys it beside the client's). */
const endpointListKey = (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: `${keys.webhookSkPrefix}*` });

/**
 * The webhook outbox in the table: messages under `WHMSG#<client>#<id>`, attempts under
 * `WHATT#<client>#<webhook>` (time-ordered ids: one Query a page, newest first), both kept 30 days by TTL; endpoint
 * health on the endpoint item. The endpoint list the stream producer reads is kept in the container's config cache
 * (CONFIG_CACHE_TTL_SECONDS): the endpoint writers of the same container forget it at once.
 */
export class DynamoWebhookOutbox implements WebhookOutbox {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly webhooks: WebhookStore,
    private readonly cache?: ConfigCache,
  ) {}

  async endpointsOf(clientId: number): Promise<WebhookRecord[]> {
    const key = endpointListKey(clientId);
    const split = this.cache && this.cache.ttlMs > 0 ? this.cache.take([key]) : undefined;
    const held = split?.cached.get(`${key.pk}\u0000${key.sk}`);
    if (held !== undefined) return (held?.['endpoints'] as WebhookRecord[] | undefined) ?? [];
    const endpoints = await this.webhooks.list(clientId);
    if (split) this.cache!.remember([key], [{ ...key, endpoints }], split.generation);
    return endpoints;
  }

  async sentEmails(refs: readonly ClientRef<string>[]): Promise<SentEmailFacts[]> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      refs.map((r) => keys.sentEmail(r.client_id, r.id)),
      {
        consistentRead: false,
        attributes: SENT_FACT_ATTRIBUTES,
      },
    );
    return items.map((item) => stripKeys<SentEmailFacts>(item));
  }

  async events(refs: readonly ClientRef<number>[]): Promise<EventFacts[]> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      refs.map((r) => keys.event(r.client_id, r.id)),
      {
        consistentRead: false,
        attributes: EVENT_FACT_ATTRIBUTES,
      },
    );
    return items.map((item) => stripKeys<EventFacts>(item));
  }

  async erasedContacts(refs: readonly ClientRef<number>[]): Promise<Map<string, string>> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      refs.map((r) => keys.erasedContact(r.client_id, r.id)),
      {
        consistentRead: false,
        attributes: ['client_id', 'contact_id', 'erased_at'],
      },
    );
    return new Map(
      items.map((item) => [`${String(item['client_id'])}:${String(item['contact_id'])}`, String(item['erased_at'])]),
    );
  }

  async putMessages(messages: readonly WebhookMessageRecord[]): Promise<void> {
    await batchPutItems(
      this.db,
      this.tableName,
      messages.map((m) => ({
        ...keys.webhookMessage(m.client_id, m.id),
        // Its contact's history entry: an erasure finds it with the contact's other records (no extra request here).
        ...(m.contact_id !== undefined
          ? keys.contactWebhookMessage(m.client_id, m.contact_id, m.created_at, m.id)
          : {}),
        ...m,
        expires_at: expiresAt(m.created_at),
      })),
    );
  }

  async message(clientId: number, messageId: string): Promise<WebhookMessageRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.webhookMessage(clientId, messageId) }),
    );
    if (!out.Item) return undefined;
    const { expires_at: _expires, ...rest } = stripKeys<WebhookMessageRecord & { expires_at?: number }>(out.Item);
    return rest;
  }

  async recordAttempt(attempt: WebhookAttemptRecord, change: EndpointHealthChange): Promise<{ disabled: boolean }> {
    const put = this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.webhookAttempt(attempt.client_id, attempt.webhook_id, attempt.id),
          ...keys.webhookAttemptOfMessage(attempt.client_id, attempt.message_id, attempt.webhook_id, attempt.id),
          ...attempt,
          expires_at: expiresAt(attempt.attempted_at),
        },
      }),
    );
    const [, disabled] = await Promise.all([put, this.applyHealth(attempt, change)]);
    if (change.kind !== 'none') this.cache?.forget(clientPk(attempt.client_id));
    return { disabled };
  }

  async disabledNoticeSent(clientId: number, webhookId: number): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.webhook(clientId, webhookId),
          UpdateExpression: 'REMOVE disabled_notice_pending',
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (error) {
      // Deleted meanwhile: nothing is owed any more.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    this.cache?.forget(clientPk(clientId));
  }

  /** One conditional UpdateItem on the endpoint when its health changes; none in the steady state. */
  private async applyHealth(attempt: WebhookAttemptRecord, change: EndpointHealthChange): Promise<boolean> {
    const Key = keys.webhook(attempt.client_id, attempt.webhook_id);
    const base = { TableName: this.tableName, Key };
    const command =
      change.kind === 'failing'
        ? new UpdateCommand({
            ...base,
            UpdateExpression: 'SET failing_since = :since',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(failing_since)',
            ExpressionAttributeValues: { ':since': change.since },
          })
        : change.kind === 'recovered' || change.kind === 'pace'
          ? new UpdateCommand({
              ...base,
              ...healthUpdate(change.kind === 'recovered', change.slowSince),
              ConditionExpression: 'attribute_exists(pk)',
            })
          : change.kind === 'disable'
            ? new UpdateCommand({
                ...base,
                // The client's e-mail is owed from now on (disabledNoticeSent clears it): a notice that fails is sent again.
                UpdateExpression:
                  'SET enabled = :false, disabled_reason = :reason, disabled_notice_pending = :true, updated_at = :at',
                ConditionExpression: 'enabled = :true AND failing_since = :since',
                ExpressionAttributeValues: {
                  ':false': false,
                  ':true': true,
                  ':reason': 'failing',
                  ':at': change.at,
                  ':since': change.since,
                },
              })
            : undefined;
    if (!command) return false;
    try {
      await this.db.send(command);
      return change.kind === 'disable';
    } catch (error) {
      // Another attempt changed it first (or the endpoint is gone): its change stands.
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async attempts(clientId: number, webhookId: number, page: { limit: number; before?: string }) {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: page.before ? 'pk = :pk AND sk < :before' : 'pk = :pk',
        ExpressionAttributeValues: {
          ':pk': keys.webhookAttemptsPk(clientId, webhookId),
          ...(page.before ? { ':before': page.before } : {}),
        },
        ScanIndexForward: false,
        Limit: page.limit + 1,
      }),
    );
    const items = (out.Items ?? []).map((item) => attemptOf(item));
    return { attempts: items.slice(0, page.limit), more: items.length > page.limit };
  }

  /**
   * Both replay caps in one TransactWriteItems (2 items, no read first): `ADD replays` on the attempt item while below
   * the per-attempt cap, and `ADD n` on the endpoint's window item while below the per-window cap (created at 1, TTL
   * an hour on). A cancelled transaction's reasons say which condition failed.
   */
  async claimReplay(
    clientId: number,
    webhookId: number,
    attemptId: string,
    caps: { perAttempt: number; perWindow: number; window: { startsAt: number; expiresAt: number } },
  ): Promise<'claimed' | 'attempt_cap' | 'endpoint_cap'> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: keys.webhookAttempt(clientId, webhookId, attemptId),
                UpdateExpression: 'ADD replays :one',
                ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(replays) OR replays < :cap)',
                ExpressionAttributeValues: { ':one': 1, ':cap': caps.perAttempt },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: keys.webhookReplayWindow(clientId, webhookId, caps.window.startsAt),
                UpdateExpression: 'ADD n :one SET expires_at = if_not_exists(expires_at, :expires)',
                ConditionExpression: 'attribute_not_exists(n) OR n < :cap',
                ExpressionAttributeValues: { ':one': 1, ':cap': caps.perWindow, ':expires': caps.window.expiresAt },
              },
            },
          ],
        }),
      );
      return 'claimed';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [ofAttempt, ofWindow] = error.CancellationReasons ?? [];
      if (ofAttempt?.Code === 'ConditionalCheckFailed') return 'attempt_cap';
      if (ofWindow?.Code === 'ConditionalCheckFailed') return 'endpoint_cap';
      throw error;
    }
  }

  async attempt(clientId: number, webhookId: number, attemptId: string): Promise<WebhookAttemptRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.webhookAttempt(clientId, webhookId, attemptId) }),
    );
    return out.Item ? attemptOf(out.Item) : undefined;
  }
}

function attemptOf(item: Record<string, unknown>): WebhookAttemptRecord {
  const {
    expires_at: _expires,
    replays: _replays,
    ...rest
  } = stripKeys<WebhookAttemptRecord & { expires_at?: number; replays?: number }>(item);
  return rest;
}

/**
 * A success's write to its endpoint, one UpdateItem: `failing_since` removed after failures, and `slow_since` set or
 * removed when the success's pace changed (SLOW_SUCCESS_MS).
 */
function healthUpdate(recovered: boolean, slowSince: string | null | undefined) {
  const removes = [...(recovered ? ['failing_since'] : []), ...(slowSince === null ? ['slow_since'] : [])];
  const set = typeof slowSince === 'string' ? 'SET slow_since = if_not_exists(slow_since, :slow)' : '';
  return {
    UpdateExpression: [set, removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' '),
    ...(typeof slowSince === 'string' ? { ExpressionAttributeValues: { ':slow': slowSince } } : {}),
  };
}
