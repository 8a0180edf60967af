import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import type { CommitOutcome, ProcessingCommit, ProcessingContext, ProcessingStore } from '../../domain/events/processing-store.js';
import type { SettingsRecord } from '../../domain/settings/settings-store.js';
import type { CustomizationRecord } from '../../domain/workflows/customization.js';
import { batchGetWithConfig, type ConfigCache } from './config-cache.js';
import { executionItem } from './execution-item.js';
import { stripKeys } from './items.js';
import { keys, type ItemKey } from './keys.js';
import { capPendingAttribute } from './quota-counter.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import { sendTransaction } from './transactions.js';
import { openHoursOf } from '../../domain/tracking/open-hours.js';
import { optional, StatsItems } from './stats-items.js';
import { utcDayOf } from '../../domain/time/utc-days.js';

const keyOf = (k: { pk: string; sk: string }) => `${k.pk}\u0000${k.sk}`;

/** The reads and the one transaction of event processing (docs/capacity.md, request plan "process an event"). */
export class DynamoProcessingStore implements ProcessingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The container's copy of client configuration (settings, profile, customizations); none: read every time. */
    private readonly configCache?: ConfigCache,
    /** The day counters' update items (issue 21): the event by type, and each execution created under its workflow. */
    private readonly stats: StatsItems = new StatsItems(tableName),
  ) {}

  async findContactId(clientId: number, ref: { email: string } | { uid: string }): Promise<number | undefined> {
    const key = 'email' in ref ? keys.emailLock(clientId, ref.email) : keys.uidLock(clientId, ref.uid);
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key, ProjectionExpression: 'contact_id', ConsistentRead: true }),
    );
    const id = out.Item?.['contact_id'];
    return typeof id === 'number' ? id : undefined;
  }

  async loadContext(clientId: number, contactId: number | undefined, workflowIds: readonly number[]): Promise<ProcessingContext> {
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

  async commit({ event, executions, contact }: ProcessingCommit): Promise<CommitOutcome> {
    const eventKey = keys.event(event.client_id, event.id);
    const { contact: summary, ...rest } = event;
    const contactUpdate = contact && contactUpdateOf(this.tableName, event.client_id, contact);
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
                  // Found by the contact's erasure once it names a contact.
                  ...(event.contact_id !== undefined ? keys.contactHistory(event.client_id, event.contact_id, 'EVENT', event.created_at, event.id) : {}),
                  ...rest,
                  ...(summary ? { contact: summary } : {}),
                },
                ConditionExpression: 'queue_status = :queued',
                ExpressionAttributeValues: { ':queued': 'queued' },
              },
            },
            ...executions.map((execution) => ({
              Put: { TableName: this.tableName, Item: executionItem(execution), ConditionExpression: 'attribute_not_exists(pk)' },
            })),
            ...(contactUpdate ? [contactUpdate] : []),
            ...capRegistrations(this.tableName, executions),
            ...this.counted(event, executions),
          ],
        }),
      );
      return 'committed';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'already_processed';
      if (reasons.slice(1, 1 + executions.length).some((r) => r.Code === 'ConditionalCheckFailed')) return 'id_taken';
      throw error;
    }
  }

  /**
   * The counters this commit adds (issue 21 §1), in its own transaction: the event received, by type, on the UTC day it
   * was received; each execution created, on its workflow's row. The commit runs once per event (it requires the
   * event still queued), so each is counted once.
   */
  private counted(event: ProcessingCommit['event'], executions: ProcessingCommit['executions']) {
    const day = utcDayOf(Date.parse(event.created_at));
    const byWorkflow = new Map<number, number>();
    for (const execution of executions) byWorkflow.set(execution.workflow_id, (byWorkflow.get(execution.workflow_id) ?? 0) + 1);
    return [
      ...optional(this.stats.eventType({ clientId: event.client_id, day, type: event.type, spread: event.id })),
      ...[...byWorkflow].flatMap(([workflowId, count]) =>
        optional(this.stats.workflowDay({ clientId: event.client_id, workflowId, day, counts: { executions: count }, spread: event.id })),
      ),
    ];
  }
}

/** Cap items outlive their day by two (support), then TTL removes them. */
const CAP_TTL_SECONDS = 3 * 86_400;

/**
 * Each queued, non-critical execution waits for a slot of its contact's day (`pending[id] = priority`), so the sender
 * can give the day's last slots to the higher priorities (critical ones bypass the cap or take slots first come).
 */
function capRegistrations(tableName: string, executions: readonly ExecutionRecord[]) {
  const byKey = new Map<string, { key: ItemKey; entries: ExecutionRecord[] }>();
  for (const e of executions) {
    if (e.status !== EXECUTION_STATUS.queued || e.critical) continue;
    const key = keys.contactDayCap(e.client_id, e.contact_id, e.cap_day);
    const group = byKey.get(key.pk) ?? { key, entries: [] };
    group.entries.push(e);
    byKey.set(key.pk, group);
  }
  return [...byKey.values()].map(({ key, entries }) => ({
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: `SET expires_at = :exp, ${entries.map((_, i) => `#e${i} = :p${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map((e, i) => [`#e${i}`, capPendingAttribute(e.id)])),
      ExpressionAttributeValues: {
        ':exp': Math.floor(Date.parse(entries[0]!.scheduled_for) / 1000) + CAP_TTL_SECONDS,
        ...Object.fromEntries(entries.map((e, i) => [`:p${i}`, e.priority_score])),
      },
    },
  }));
}

function contactUpdateOf(tableName: string, clientId: number, change: NonNullable<ProcessingCommit['contact']>) {
  const sets = ['updated_at = :at'];
  const values: Record<string, unknown> = { ':at': change.at };
  if (change.tags) (sets.push('tags = :tags'), (values[':tags'] = change.tags));
  if (change.lastPurchaseAt) (sets.push('last_purchase_at = :purchase'), (values[':purchase'] = change.lastPurchaseAt));
  if (change.lastActivityAt) (sets.push('last_activity_at = :activity'), (values[':activity'] = change.lastActivityAt));
  let expression = `SET ${sets.join(', ')}`;
  if (change.workflowsStarted > 0) {
    expression += ' ADD active_workflow_count :n';
    values[':n'] = change.workflowsStarted;
  }
  return {
    Update: {
      TableName: tableName,
      Key: keys.contact(clientId, change.contactId),
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    },
  };
}
