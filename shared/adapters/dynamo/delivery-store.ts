import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import {
  claimedEmailIdOf,
  claimOf,
  type ClaimOutcome,
  type DeliveryStore,
  type Reservation,
  type SendContext,
  type SettleOutcome,
} from '../../domain/executions/delivery-store.js';
import {
  broadcastPlaceOf,
  EXECUTION_STATUS,
  journeyPlaceOf,
  messageZoneOf,
  type ExecutionClaim,
  type ExecutionRecord,
} from '../../domain/executions/execution-record.js';
import { SENT_STATUS } from '../../domain/sent-emails/sent-email-record.js';
import type { SettingsRecord } from '../../domain/settings/settings-store.js';
import { isSystemTemplateId, type TemplateRecord } from '../../domain/templates/template-store.js';
import type { CustomizationRecord } from '../../domain/workflows/customization.js';
import { batchGetWithConfig, type ConfigCache } from './config-cache.js';
import { queryAll } from './query-all.js';
import { ENDED_CLAIM } from './execution-item.js';
import { stripKeys } from './items.js';
import {
  carriesOwnSettings,
  executionCategoryOf,
  isBroadcastSend,
  isJourneySend,
} from '../../domain/executions/journey-execution.js';
import type { JourneyIndex } from '../../domain/journeys/journey-records.js';
import { topicSetOf } from './topic-store.js';
import { accountKeys, clientPk, keys, type ItemKey } from './keys.js';
import { capPendingAttribute, dayCapOf, QUOTA_SENT_ATTRIBUTE, quotaDayAttribute } from './quota-counter.js';
import { sendTransaction } from './transactions.js';
import { sentEmailAttributes } from './sent-email-item.js';
import { contactFiguresUpdate } from './contact-figures.js';
import { goalMarkAttribute } from '../../domain/workflows/goals.js';
import { quotaShardOf } from '../../domain/executions/quota-shards.js';
import { senderStateOf } from './settings-store.js';
import { engagementUpdate } from './engagement-facts.js';
import { endedActive } from './recipient-item.js';

function quotaShardFor(r: Reservation) {
  return quotaShardOf(r.execution.id, r.quota);
}

const keyOf = (k: { pk: string; sk: string }) => `${k.pk}\u0000${k.sk}`;
/** Day-cap counters outlive their day by two, for support, then TTL removes them. */
const CAP_TTL_SECONDS = 3 * 86_400;

/** The send's reads and transactions (docs/capacity.md, request plan "execute one send"). */
export class DynamoDeliveryStore implements DeliveryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The container's copy of client configuration (settings, profile, customization, template); none: read every time. */
    private readonly configCache?: ConfigCache,
  ) {}

  async load(execution: ExecutionRecord): Promise<SendContext> {
    const c = execution.client_id;
    const config: {
      settings: ItemKey;
      client: ItemKey;
      sender: ItemKey;
      customization?: ItemKey;
      journeyIndex?: ItemKey;
      topics?: ItemKey;
      template?: ItemKey;
    } = {
      settings: keys.settings(c),
      client: keys.clientProfile(c),
      // Verified domains, tenant and its pause: the From and the sandbox are decided from it.
      sender: keys.sender(c),
      // A journey's send reads its journey's state in the client's journey index; the 8 their customization; a
      // broadcast's recipient carries its own settings (its broadcast's state is read below, uncached).
      ...(isJourneySend(execution)
        ? { journeyIndex: keys.journeyIndex(c) }
        : carriesOwnSettings(execution)
          ? {}
          : { customization: keys.customization(c, execution.workflow_id) }),
      // Marketing mail may belong to a topic the contact left: one more key of the same BatchGetItem.
      ...(executionCategoryOf(execution) === 'marketing' ? { topics: keys.topics(c) } : {}),
      ...(isSystemTemplateId(execution.template_id) || execution.holdout
        ? {}
        : { template: keys.template(c, execution.template_id) }),
    };
    const wanted = {
      ...config,
      contact: keys.contact(c, execution.contact_id),
      cap: keys.contactDayCap(c, execution.contact_id, execution.cap_day),
    };
    // A recipient's broadcast, read strongly with the contact: a pause or a cancel holds at the very next send.
    const broadcastKey = isBroadcastSend(execution) ? keys.broadcast(c, execution.broadcast_id) : undefined;
    const items = await batchGetWithConfig(
      this.db,
      this.tableName,
      this.configCache,
      [wanted.contact, wanted.cap, ...(broadcastKey ? [broadcastKey] : [])],
      Object.values(config),
    );
    const byKey = new Map(items.map((item) => [keyOf(item as unknown as ItemKey), item]));
    const read = <T>(key: ItemKey | undefined): T | undefined => {
      const item = key && byKey.get(keyOf(key));
      return item ? stripKeys<T>(item) : undefined;
    };
    const topicsItem = config.topics ? byKey.get(keyOf(config.topics)) : undefined;
    const senderItem = byKey.get(keyOf(config.sender));
    const journey = read<JourneyIndex>(config.journeyIndex)?.journeys.find((j) => j.id === execution.workflow_id);
    const broadcast = read<{
      status: string;
      shards?: number;
      winner?: { variant: number };
      definition?: { variants?: { template_id: number; subject?: string }[] };
    }>(broadcastKey);
    const won = broadcast?.winner ? broadcast.definition?.variants?.[broadcast.winner.variant] : undefined;
    // A holdout's template is its test's winner's, known only once the head is read: one read more (from the
    // container's configuration cache when it holds it).
    const wonTemplateKey =
      execution.holdout && won && !isSystemTemplateId(won.template_id) ? keys.template(c, won.template_id) : undefined;
    const wonTemplate = wonTemplateKey
      ? (await batchGetWithConfig(this.db, this.tableName, this.configCache, [], [wonTemplateKey]))[0]
      : undefined;
    return {
      ...(broadcast
        ? {
            broadcast: {
              status: broadcast.status,
              ...(broadcast.shards !== undefined ? { shards: broadcast.shards } : {}),
              ...(won && broadcast.winner
                ? {
                    winner: {
                      variant: broadcast.winner.variant,
                      template_id: won.template_id,
                      ...(won.subject !== undefined ? { subject: won.subject } : {}),
                    },
                  }
                : {}),
            },
          }
        : {}),
      ...(senderItem ? { sender: senderStateOf(senderItem) } : {}),
      ...(journey ? { journey } : {}),
      contact: read<ContactRecord>(wanted.contact),
      settings: read<SettingsRecord>(wanted.settings),
      client: read<ClientRecord>(wanted.client),
      customization: read<CustomizationRecord>(config.customization),
      template: wonTemplate ? stripKeys<TemplateRecord>(wonTemplate) : read<TemplateRecord>(wanted.template),
      ...(topicsItem ? { topics: topicSetOf(topicsItem) } : {}),
      cap: dayCapOf(byKey.get(keyOf(wanted.cap))),
    };
  }

  /** One Query of the client's users (their items hold the address); eventually consistent, e-mail only. */
  async sandboxRecipients(clientId: number): Promise<string[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientPk(clientId), ':prefix': accountKeys.userSkPrefix },
      ProjectionExpression: 'email',
    });
    return items.map((item) => String(item['email'] ?? '')).filter((email) => email !== '');
  }

  async markTenantPaused(clientId: number, reason: string, at: string): Promise<void> {
    await this.updateSender(clientId, {
      // The first sighting stays the pause's start; the reason and the last look move.
      UpdateExpression:
        'SET tenant_paused_at = if_not_exists(tenant_paused_at, :at), tenant_paused_reason = :reason, tenant_checked_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at, ':reason': reason },
    });
  }

  async clearTenantPause(clientId: number, pausedAt: string): Promise<void> {
    await this.updateSender(clientId, {
      UpdateExpression: 'REMOVE tenant_paused_at, tenant_paused_reason, tenant_checked_at',
      ConditionExpression: 'tenant_paused_at = :seen',
      ExpressionAttributeValues: { ':seen': pausedAt },
    });
  }

  /** A conditional update of the client's sender state; a failed condition (no item, another pause) writes nothing. */
  private async updateSender(
    clientId: number,
    update: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeValues: Record<string, unknown>;
    },
  ): Promise<void> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.tableName, Key: keys.sender(clientId), ...update }));
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    } finally {
      // The pause is read with the cached configuration: this container's next load reads it again.
      this.configCache?.forget(clientPk(clientId));
    }
  }

  async claim(r: Reservation): Promise<ClaimOutcome> {
    const c = r.execution.client_id;
    const e = r.sentEmail;
    // The quota counter is the client's hottest item: raised first by its own conditional write, which DynamoDB
    // serializes and never cancels for a conflict, where inside the transaction concurrent claims conflicted on it
    // (130 % retries per claim at 32 executors on 8 shards, docs/capacity.md §6).
    const quota = await this.takeQuota(r);
    if (quota !== 'taken') return quota;
    const slots: ClaimOutcome[] = ['taken'];
    const actions: NonNullable<TransactWriteCommand['input']['TransactItems']> = [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.execution(c, r.execution.id),
          // The claim keeps what it reserves, and enters the stuck-execution index (gsi3) for as long as it holds.
          UpdateExpression:
            'SET #s = :executing, updated_at = :at, claim = :claim, gsi3pk = :g3pk, gsi3sk = :g3sk REMOVE retry_pending, outcome_unknown',
          // Unchanged since it was read: a second worker or delivery cancels here, before anything is sent.
          ConditionExpression:
            '(#s = :queued OR (#s = :executing AND retry_pending = :true)) AND #s = :seenStatus AND updated_at = :seen AND scheduled_for <= :at',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':executing': EXECUTION_STATUS.executing,
            ':queued': EXECUTION_STATUS.queued,
            ':true': true,
            ':seenStatus': r.execution.status,
            ':seen': r.execution.updated_at,
            ':at': r.at,
            ':claim': claimOf(r),
            ':g3pk': executing(r.execution, r.at).gsi3pk,
            ':g3sk': executing(r.execution, r.at).gsi3sk,
          },
        },
      },
    ];
    // The send-time goal check: no exit event of the workflow processed since the execution was created.
    // The contact was read a moment ago; this holds it until the claim lands (the race left: docs/decisions/0095-goals-and-exit-events.md).
    slots.push('goal_reached');
    actions.push({
      ConditionCheck: {
        TableName: this.tableName,
        Key: keys.contact(c, r.execution.contact_id),
        ConditionExpression: 'attribute_not_exists(#goal) OR #goal.#at <= :created',
        ExpressionAttributeNames: { '#goal': goalMarkAttribute(r.execution.workflow_id), '#at': 'at' },
        ExpressionAttributeValues: { ':created': r.execution.created_at },
      },
    });
    if (r.contactCap) {
      slots.push('contact_cap');
      const capKey = keys.contactDayCap(c, r.execution.contact_id, r.execution.cap_day);
      actions.push(this.raiseCap(capKey, r));
    }
    actions.push(
      // A retry of a send that failed transiently finds its own record, still queued.
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...keys.sentEmail(c, e.id),
            ...keys.contactHistory(c, e.contact_id, 'SENT', e.created_at, e.id),
            ...sentEmailAttributes(e),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #s = :queued',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':queued': SENT_STATUS.queued },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.sentEmailLogItem(c, e.id, r.log.created_at, r.log.id), ...r.log },
        },
      },
    );
    try {
      await sendTransaction(this.db, new TransactWriteCommand({ TransactItems: actions }));
      return 'claimed';
    } catch (error) {
      // Nothing was claimed: the quota taken above goes back (a crash right here leaves it counted, one send short).
      await this.returnQuota(r.execution.client_id, claimOf(r));
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failed >= 0) return slots[failed] ?? 'taken';
      throw error;
    }
  }

  async recordSent(r: Reservation, providerMessageId: string, at: string, logId: string): Promise<SettleOutcome> {
    const c = r.execution.client_id;
    const e = r.sentEmail;
    return this.settle(
      3,
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: keys.sentEmail(c, e.id),
              // Status notifications need the provider id, which exists only from here on: nothing
              // can have moved the status past `queued` yet.
              UpdateExpression: 'SET provider_message_id = :id, #s = :sent, status_updated_at = :at',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':id': providerMessageId, ':sent': SENT_STATUS.sent, ':at': at },
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: {
                ...keys.sentEmailLogItem(c, e.id, at, logId),
                id: logId,
                created_at: at,
                status: SENT_STATUS.sent,
                provider_message_id: providerMessageId,
              },
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: {
                ...keys.providerMessage(providerMessageId),
                client_id: c,
                sent_email_id: e.id,
                contact_id: r.execution.contact_id,
                workflow_id: r.execution.workflow_id,
                created_at: at,
                ...messageZoneOf(r.execution),
                ...journeyPlaceOf(r.execution),
                ...broadcastPlaceOf(r.execution),
              },
            },
          },
          this.endExecution(r.execution, EXECUTION_STATUS.completed, at, { sent_email_id: e.id }),
          contactFiguresUpdate(this.tableName, c, r.execution.contact_id, {
            activeWorkflows: endedActive(r.execution),
            emailsSent: 1,
            lastWorkflowAt: at,
            closedExecutionId: r.execution.id,
            ...sentWorkflowOf(r.execution),
            sentPlace: journeyPlaceOf(r.execution),
          }),
          ...broadcastSentUpdate(this.tableName, r.execution, at),
        ],
      }),
    );
  }

  async confirmSent(
    execution: ExecutionRecord,
    providerMessageId: string,
    reason: string,
    at: string,
  ): Promise<SettleOutcome> {
    const c = execution.client_id;
    const sentEmailId = claimedEmailIdOf(execution);
    return this.settle(
      2,
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: keys.sentEmail(c, sentEmailId),
              // The notification that is the evidence already logged itself; the e-mail gets the id it names.
              UpdateExpression: 'SET provider_message_id = :id, #s = :sent, status_updated_at = :at',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':id': providerMessageId, ':sent': SENT_STATUS.sent, ':at': at },
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: {
                ...keys.providerMessage(providerMessageId),
                client_id: c,
                sent_email_id: sentEmailId,
                contact_id: execution.contact_id,
                workflow_id: execution.workflow_id,
                created_at: at,
                ...messageZoneOf(execution),
                ...journeyPlaceOf(execution),
                ...broadcastPlaceOf(execution),
              },
            },
          },
          this.endExecution(
            execution,
            EXECUTION_STATUS.completed,
            at,
            { sent_email_id: sentEmailId, reason },
            execution.updated_at,
          ),
          contactFiguresUpdate(this.tableName, c, execution.contact_id, {
            activeWorkflows: endedActive(execution),
            emailsSent: 1,
            lastWorkflowAt: at,
            closedExecutionId: execution.id,
            ...sentWorkflowOf(execution),
            sentPlace: journeyPlaceOf(execution),
          }),
          ...broadcastSentUpdate(this.tableName, execution, at),
        ],
      }),
    );
  }

  async findEvidence(execution: ExecutionRecord): Promise<string | undefined> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
      ExpressionAttributeValues: {
        ':pk': keys.sentEmail(execution.client_id, claimedEmailIdOf(execution)).pk,
        ':log': keys.sentEmailLogPrefix,
      },
      ProjectionExpression: 'provider_message_id',
      ConsistentRead: true,
    });
    const named = items.find((item) => typeof item['provider_message_id'] === 'string');
    return named?.['provider_message_id'] as string | undefined;
  }

  async markOutcomeUnknown(execution: ExecutionRecord, reason: string, at: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.execution(execution.client_id, execution.id),
          UpdateExpression: 'SET outcome_unknown = :t, reason = :reason, updated_at = :at, gsi3sk = :g3sk',
          ConditionExpression: '#s = :executing AND updated_at = :seen',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':t': true,
            ':reason': reason,
            ':at': at,
            ':g3sk': executing(execution, at).gsi3sk,
            ':executing': EXECUTION_STATUS.executing,
            ':seen': execution.updated_at,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** One of the transactions that end a claim; `moved` when the execution (item `executionAt`) was no longer as read. */
  private async settle(executionAt: number, command: TransactWriteCommand): Promise<SettleOutcome> {
    try {
      await sendTransaction(this.db, command);
      return 'done';
    } catch (error) {
      if (
        error instanceof TransactionCanceledException &&
        error.CancellationReasons?.[executionAt]?.Code === 'ConditionalCheckFailed'
      ) {
        return 'moved';
      }
      throw error;
    }
  }

  async recordRejected(r: Reservation, reason: string, at: string, logId: string): Promise<void> {
    const c = r.execution.client_id;
    const e = r.sentEmail;
    await sendTransaction(
      this.db,
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: keys.sentEmail(c, e.id),
              UpdateExpression: 'SET #s = :failed, status_updated_at = :at',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':failed': SENT_STATUS.failed, ':at': at },
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: {
                ...keys.sentEmailLogItem(c, e.id, at, logId),
                id: logId,
                created_at: at,
                status: SENT_STATUS.failed,
                detail: reason,
              },
            },
          },
          this.endExecution(r.execution, EXECUTION_STATUS.failed, at, { reason, sent_email_id: e.id }),
          ...this.giveBack(r.execution, claimOf(r)),
          contactFiguresUpdate(this.tableName, c, r.execution.contact_id, {
            activeWorkflows: endedActive(r.execution),
            closedExecutionId: r.execution.id,
          }),
        ],
      }),
    );
    await this.returnQuota(c, claimOf(r));
  }

  async releaseClaim(execution: ExecutionRecord, reason: string, at: string): Promise<boolean> {
    return this.endClaimWithoutSend(execution, {
      UpdateExpression:
        'SET retry_pending = :t, reason = :reason, updated_at = :at, gsi3sk = :g3sk ADD attempt :one REMOVE claim, outcome_unknown',
      ExpressionAttributeValues: {
        ':t': true,
        ':reason': reason,
        ':at': at,
        ':one': 1,
        ':g3sk': executing(execution, at).gsi3sk,
      },
    });
  }

  async deferClaim(
    execution: ExecutionRecord,
    scheduledFor: string,
    reason: string,
    at: string,
    cause: 'throttle' | 'pause' = 'throttle',
  ): Promise<boolean> {
    // Queued again: the stuck index holds it by its new due time, as any queued execution (execution-item.ts).
    const entry = keys.executingEntry(execution.client_id, execution.id, scheduledFor);
    const counters = cause === 'throttle' ? 'throttled :one, deferrals :one' : 'deferrals :one';
    return this.endClaimWithoutSend(execution, {
      UpdateExpression: `SET #s = :queued, scheduled_for = :when, reason = :reason, updated_at = :at, gsi3pk = :g3pk, gsi3sk = :g3sk ADD ${counters} REMOVE claim, outcome_unknown, retry_pending`,
      ExpressionAttributeValues: {
        ':queued': EXECUTION_STATUS.queued,
        ':when': scheduledFor,
        ':reason': reason,
        ':at': at,
        ':one': 1,
        ':g3pk': entry.gsi3pk,
        ':g3sk': entry.gsi3sk,
      },
    });
  }

  /**
   * One transaction that ends a claim with nothing sent: the execution's `update` (conditioned on it being at 2 as
   * read), the claim's queued log removed and its quota and cap given back — the next claim writes them again, so
   * the history keeps one of each (the day counters take the claim's `sent` back from the claim's removal). False
   * when the execution had moved.
   */
  private async endClaimWithoutSend(
    execution: ExecutionRecord,
    update: { UpdateExpression: string; ExpressionAttributeValues: Record<string, unknown> },
  ): Promise<boolean> {
    const c = execution.client_id;
    const claim = execution.claim;
    const outcome = await this.settle(
      0,
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: keys.execution(c, execution.id),
              UpdateExpression: update.UpdateExpression,
              ConditionExpression: '#s = :executing AND updated_at = :seen',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: {
                ...update.ExpressionAttributeValues,
                ':executing': EXECUTION_STATUS.executing,
                ':seen': execution.updated_at,
              },
            },
          },
          ...(claim
            ? [
                {
                  Delete: {
                    TableName: this.tableName,
                    Key: keys.sentEmailLog(c, claimedEmailIdOf(execution), claim.log_at, claim.log_id),
                  },
                },
                ...this.giveBack(execution, claim, { waitAgain: true }),
              ]
            : []),
        ],
      }),
    );
    // Only the worker that ended the claim gives its quota back.
    if (outcome === 'done' && claim) await this.returnQuota(c, claim);
    return outcome === 'done';
  }

  /** Which limit held: the quota item as it was (returned with the cancellation) against the month's share. */
  private quotaSpent(r: Reservation, item: Record<string, { N?: string }> | undefined): 'quota_day' | 'quota_month' {
    const { monthShare } = quotaShardFor(r);
    const monthSent = Number(item?.[QUOTA_SENT_ATTRIBUTE]?.N ?? 0);
    return monthSent >= monthShare ? 'quota_month' : 'quota_day';
  }

  /**
   * The client's quota item (its shard): `sent` and the day's `dNN` raised together, each below its limit, in one
   * conditional UpdateItem. `taken` when it was raised; otherwise which limit held (the item as it was comes back
   * with the failed condition).
   */
  private async takeQuota(r: Reservation): Promise<'taken' | 'quota_day' | 'quota_month'> {
    const { shard, dayShare, monthShare } = quotaShardFor(r);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.quota(r.execution.client_id, r.quota.month, shard),
          UpdateExpression: 'ADD #m :one, #d :one',
          ConditionExpression:
            '(attribute_not_exists(#m) OR #m < :mlimit) AND (attribute_not_exists(#d) OR #d < :dlimit)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ExpressionAttributeNames: { '#m': QUOTA_SENT_ATTRIBUTE, '#d': quotaDayAttribute(r.quota.day) },
          ExpressionAttributeValues: { ':one': 1, ':mlimit': monthShare, ':dlimit': dayShare },
        }),
      );
      return 'taken';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException)
        return this.quotaSpent(r, error.Item as Record<string, { N?: string }> | undefined);
      throw error;
    }
  }

  /** The quota a claim took, given back (nothing was sent): one UpdateItem, outside any transaction like the take. */
  private async returnQuota(
    clientId: number,
    claim: Pick<ExecutionClaim, 'quota_month' | 'quota_day' | 'quota_shard'>,
  ): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.quota(clientId, claim.quota_month, claim.quota_shard),
        UpdateExpression: 'ADD #m :minus, #d :minus',
        ExpressionAttributeNames: { '#m': QUOTA_SENT_ATTRIBUTE, '#d': quotaDayAttribute(claim.quota_day) },
        ExpressionAttributeValues: { ':minus': -1 },
      }),
    );
  }

  /** The contact's day counter: `ADD sent 1` below the limit, and this execution no longer waits for a slot. */
  private raiseCap(key: ItemKey, r: Reservation) {
    return {
      Update: {
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'ADD #n :one SET expires_at = :exp REMOVE #me',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { '#n': QUOTA_SENT_ATTRIBUTE, '#me': capPendingAttribute(r.execution.id) },
        ExpressionAttributeValues: {
          ':one': 1,
          ':limit': r.contactCap!.limit,
          ':exp': Math.floor(Date.parse(r.sentEmail.created_at) / 1000) + CAP_TTL_SECONDS,
        },
      },
    };
  }

  /** The contact's day cap a claim raised, lowered again in the ending transaction (the quota: returnQuota, after it). */
  private giveBack(execution: ExecutionRecord, claim: ExecutionClaim, options: { waitAgain?: boolean } = {}) {
    const c = execution.client_id;
    return claim.cap
      ? [
          {
            Update: {
              TableName: this.tableName,
              Key: keys.contactDayCap(c, execution.contact_id, execution.cap_day),
              // A send that will be retried waits for a slot again, with its priority.
              UpdateExpression: options.waitAgain ? 'ADD #n :minus SET #me = :priority' : 'ADD #n :minus',
              ExpressionAttributeNames: {
                '#n': QUOTA_SENT_ATTRIBUTE,
                ...(options.waitAgain ? { '#me': capPendingAttribute(execution.id) } : {}),
              },
              ExpressionAttributeValues: {
                ':minus': -1,
                ...(options.waitAgain ? { ':priority': execution.priority_score } : {}),
              },
            },
          },
        ]
      : [];
  }

  /** Execution 2 → `status`, leaving the claim and the stuck-execution index; `seen`: also unchanged since read. */
  private endExecution(
    execution: ExecutionRecord,
    status: number,
    at: string,
    extra: Record<string, string>,
    seen?: string,
  ) {
    const names = Object.keys(extra);
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.execution(execution.client_id, execution.id),
        UpdateExpression: `SET #s = :to, processed_at = :at, updated_at = :at${names.map((n) => `, ${n} = :${n}`).join('')} ${ENDED_CLAIM}`,
        ConditionExpression: seen ? '#s = :executing AND updated_at = :seen' : '#s = :executing',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':to': status,
          ':at': at,
          ':executing': EXECUTION_STATUS.executing,
          ...(seen ? { ':seen': seen } : {}),
          ...Object.fromEntries(names.map((n) => [`:${n}`, extra[n]])),
        },
      },
    };
  }
}

/** A send's workflow for the contact's conversion window (`sent_w<id>`): none for a broadcast's (workflow 0). */
/**
 * A broadcast's send marks the contact's engagement item with the broadcast (`sent_at`, the first only): what a
 * segment's "sent B, opened none" reads. Last in the transaction (the cancellation reasons keep their places); the
 * contact's own Update beside it is conditioned on the contact, so an erased contact gets none. A journey's sends are
 * the contact's `sent_w<journey>` already: nothing more.
 */
const broadcastSentUpdate = (tableName: string, execution: ExecutionRecord, at: string) =>
  isBroadcastSend(execution)
    ? [
        engagementUpdate(tableName, execution.client_id, execution.contact_id, {
          source: `B${execution.broadcast_id}`,
          sentAt: at,
        }),
      ]
    : [];

const sentWorkflowOf = (execution: ExecutionRecord): { sentWorkflowId?: number } =>
  isBroadcastSend(execution) ? {} : { sentWorkflowId: execution.workflow_id };

/** The stuck-execution index entry (gsi3) of an execution at 2 since `at`. */
const executing = (execution: Pick<ExecutionRecord, 'client_id' | 'id'>, at: string) =>
  keys.executingEntry(execution.client_id, execution.id, at);
