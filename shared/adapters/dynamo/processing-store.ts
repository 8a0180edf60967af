import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import type {
  CommitOutcome,
  GoalCancellation,
  ProcessingCommit,
  ProcessingContext,
  ProcessingStore,
} from '../../domain/events/processing-store.js';
import {
  convertedAttribute,
  GOAL_REACHED,
  goalMarkAttribute,
  openExecutionAttribute,
  openExecutionValue,
} from '../../domain/workflows/goals.js';
import { ENDED_CLAIM } from './execution-item.js';
import type { SettingsRecord } from '../../domain/settings/settings-store.js';
import type { CustomizationRecord } from '../../domain/workflows/customization.js';
import { batchGetWithConfig, type ConfigCache } from './config-cache.js';
import { executionItem } from './execution-item.js';
import { stripKeys } from './items.js';
import { ENTITY, keys, type ItemKey } from './keys.js';
import { capPendingAttribute } from './quota-counter.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import { sendTransaction } from './transactions.js';
import { openHoursOf } from '../../domain/tracking/open-hours.js';

const keyOf = (k: { pk: string; sk: string }) => `${k.pk}\u0000${k.sk}`;

/** The reads and the one transaction of event processing (docs/capacity.md, request plan "process an event"). */
export class DynamoProcessingStore implements ProcessingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The container's copy of client configuration (settings, profile, customizations); none: read every time. */
    private readonly configCache?: ConfigCache,
  ) {}

  async findContactId(clientId: number, ref: { email: string } | { uid: string }): Promise<number | undefined> {
    const key = 'email' in ref ? keys.emailLock(clientId, ref.email) : keys.uidLock(clientId, ref.uid);
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key, ProjectionExpression: 'contact_id', ConsistentRead: true }),
    );
    const id = out.Item?.['contact_id'];
    return typeof id === 'number' ? id : undefined;
  }

  async loadContext(
    clientId: number,
    contactId: number | undefined,
    workflowIds: readonly number[],
  ): Promise<ProcessingContext> {
    const contactKey = contactId !== undefined ? keys.contact(clientId, contactId) : undefined;
    const settingsKey = keys.settings(clientId);
    const profileKey = keys.clientProfile(clientId);
    const customizationKeys = workflowIds.map((id) => keys.customization(clientId, id));
    // The aggregate open hours ride with the configuration: same request, and a copy up to the cache's TTL old is fine.
    const openHoursKey = keys.clientOpenHours(clientId);
    const items = await batchGetWithConfig(this.db, this.tableName, this.configCache, contactKey ? [contactKey] : [], [
      settingsKey,
      profileKey,
      ...customizationKeys,
      openHoursKey,
    ]);
    const byKey = new Map(items.map((item) => [keyOf(item as { pk: string; sk: string }), item]));
    const read = <T>(key: { pk: string; sk: string } | undefined) => {
      const item = key && byKey.get(keyOf(key));
      return item ? stripKeys<T>(item) : undefined;
    };
    return {
      contact: read<ContactRecord>(contactKey),
      settings: read<SettingsRecord>(settingsKey),
      client: read<ClientRecord>(profileKey),
      customizations: workflowIds.flatMap((workflowId, i) => {
        const record = read<CustomizationRecord>(customizationKeys[i]);
        return record ? [{ ...record, workflow_id: workflowId }] : [];
      }),
      ...(byKey.has(keyOf(openHoursKey)) ? { clientOpenHours: openHoursOf(byKey.get(keyOf(openHoursKey))) } : {}),
    };
  }

  async commit({ event, executions, contact, cancellations = [] }: ProcessingCommit): Promise<CommitOutcome> {
    const eventKey = keys.event(event.client_id, event.id);
    const { contact: summary, ...rest } = event;
    const contactUpdate = contact && contactUpdateOf(this.tableName, event.client_id, contact);
    const firstCancellation = 1 + executions.length + (contactUpdate ? 1 : 0);
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({
          TransactItems: [
            {
              // The whole event, its sparse "queued" index entry gone; only while it is still queued.
              Put: {
                TableName: this.tableName,
                Item: {
                  ...eventKey,
                  entity: ENTITY.event,
                  // Found by the contact's erasure once it names a contact.
                  ...(event.contact_id !== undefined
                    ? keys.contactHistory(event.client_id, event.contact_id, 'EVENT', event.created_at, event.id)
                    : {}),
                  ...rest,
                  ...(summary ? { contact: summary } : {}),
                },
                ConditionExpression: 'queue_status = :queued',
                ExpressionAttributeValues: { ':queued': 'queued' },
              },
            },
            ...executions.map((execution) => ({
              Put: {
                TableName: this.tableName,
                Item: executionItem(execution),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            })),
            ...(contactUpdate ? [contactUpdate] : []),
            ...cancellations.map((c) => goalCancellationOf(this.tableName, event.client_id, c)),
            ...capChanges(this.tableName, executions, cancellations, event.client_id),
          ],
        }),
      );
      return 'committed';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'already_processed';
      if (reasons.slice(1, 1 + executions.length).some((r) => r.Code === 'ConditionalCheckFailed')) return 'id_taken';
      const moved = cancellations.filter((_, i) => reasons[firstCancellation + i]?.Code === 'ConditionalCheckFailed');
      if (moved.length > 0) return { moved: moved.map((c) => c.execution.execution_id) };
      if (contactUpdate && reasons[firstCancellation - 1]?.Code === 'ConditionalCheckFailed') return 'contact_changed';
      throw error;
    }
  }
}

/** Cap items outlive their day by two (support), then TTL removes them. */
const CAP_TTL_SECONDS = 3 * 86_400;

/**
 * Each queued, non-critical execution waits for a slot of its contact's day (`pending[id] = priority`), so the sender
 * can give the day's last slots to the higher priorities (critical ones bypass the cap or take slots first come). An
 * execution cancelled by a goal waits no more. One action per cap item: a transaction may not touch an item twice.
 */
function capChanges(
  tableName: string,
  executions: readonly ExecutionRecord[],
  cancellations: readonly GoalCancellation[],
  clientId: number,
) {
  const byKey = new Map<string, { key: ItemKey; entries: ExecutionRecord[]; removed: number[] }>();
  const groupOf = (key: ItemKey) => {
    const group = byKey.get(key.pk) ?? { key, entries: [], removed: [] };
    byKey.set(key.pk, group);
    return group;
  };
  for (const e of executions) {
    if (e.status !== EXECUTION_STATUS.queued || e.critical) continue;
    groupOf(keys.contactDayCap(e.client_id, e.contact_id, e.cap_day)).entries.push(e);
  }
  for (const { execution } of cancellations) {
    if (execution.critical) continue;
    groupOf(keys.contactDayCap(clientId, contactOf(cancellations), execution.cap_day)).removed.push(
      execution.execution_id,
    );
  }
  return [...byKey.values()].map(({ key, entries, removed }) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    entries.forEach((e, i) => {
      names[`#e${i}`] = capPendingAttribute(e.id);
      values[`:p${i}`] = e.priority_score;
      sets.push(`#e${i} = :p${i}`);
    });
    if (entries.length > 0)
      sets.unshift('expires_at = :exp'),
        (values[':exp'] = Math.floor(Date.parse(entries[0]!.scheduled_for) / 1000) + CAP_TTL_SECONDS);
    for (const [i, id] of removed.entries()) names[`#r${i}`] = capPendingAttribute(id);
    const expression = [
      ...(sets.length > 0 ? [`SET ${sets.join(', ')}`] : []),
      ...(removed.length > 0 ? [`REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}`] : []),
    ].join(' ');
    return {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      },
    };
  });
}

/** The cancellations' contact: an event's exits only cancel executions its own contact item lists. */
const contactOf = (cancellations: readonly GoalCancellation[]): number => cancellations[0]!.contactId;

/** Execution 1 → 5 `goal_reached` naming the exit event, only while queued; it leaves the stuck-execution index. */
function goalCancellationOf(tableName: string, clientId: number, c: GoalCancellation) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.execution(clientId, c.execution.execution_id),
      UpdateExpression: `SET #s = :cancelled, reason = :reason, goal_event_id = :event, processed_at = :at, updated_at = :at ${ENDED_CLAIM}`,
      ConditionExpression: '#s = :queued',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':cancelled': EXECUTION_STATUS.cancelled,
        ':queued': EXECUTION_STATUS.queued,
        ':reason': GOAL_REACHED,
        ':event': c.eventId,
        ':at': c.at,
      },
    },
  };
}

function contactUpdateOf(tableName: string, clientId: number, change: NonNullable<ProcessingCommit['contact']>) {
  const sets = ['updated_at = :at'];
  const values: Record<string, unknown> = { ':at': change.at };
  const names: Record<string, string> = {};
  if (change.tags) sets.push('tags = :tags'), (values[':tags'] = change.tags);
  if (change.lastPurchaseAt) sets.push('last_purchase_at = :purchase'), (values[':purchase'] = change.lastPurchaseAt);
  if (change.lastActivityAt) sets.push('last_activity_at = :activity'), (values[':activity'] = change.lastActivityAt);
  // Goals: the workflows this event exits remember it; queued executions are listed, ended ones unlisted.
  if (change.goalMarks && change.goalMarks.workflowIds.length > 0) {
    values[':goal'] = { at: change.at, event_id: change.goalMarks.eventId };
    for (const [i, id] of change.goalMarks.workflowIds.entries()) {
      names[`#g${i}`] = goalMarkAttribute(id);
      sets.push(`#g${i} = :goal`);
    }
  }
  // Conversions: once per e-mail — the condition below holds only while this send is not converted.
  const conversionConditions: string[] = [];
  (change.conversions ?? []).forEach((conversion, i) => {
    names[`#cv${i}`] = convertedAttribute(conversion.workflowId);
    values[`:cv${i}`] = conversion.sentAt;
    sets.push(`#cv${i} = :cv${i}`);
    conversionConditions.push(`(attribute_not_exists(#cv${i}) OR #cv${i} <> :cv${i})`);
  });
  (change.opened ?? []).forEach((open, i) => {
    names[`#o${i}`] = openExecutionAttribute(open.execution_id);
    values[`:o${i}`] = openExecutionValue(open);
    sets.push(`#o${i} = :o${i}`);
  });
  let expression = `SET ${sets.join(', ')}`;
  if (change.workflowsStarted !== 0) {
    expression += ' ADD active_workflow_count :n';
    values[':n'] = change.workflowsStarted;
  }
  const closed = change.closed ?? [];
  for (const [i, id] of closed.entries()) names[`#c${i}`] = openExecutionAttribute(id);
  if (closed.length > 0) expression += ` REMOVE ${closed.map((_, i) => `#c${i}`).join(', ')}`;
  return {
    Update: {
      TableName: tableName,
      Key: keys.contact(clientId, change.contactId),
      UpdateExpression: expression,
      ConditionExpression: ['attribute_exists(pk)', ...conversionConditions].join(' AND '),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}
