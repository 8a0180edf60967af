import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  compareActivity,
  kindBelow,
  newestFirst,
  type ActivityPosition,
} from '../../domain/contacts/activity-position.js';
import {
  ACTIVITY_EVENT_FIELDS,
  ACTIVITY_EXECUTION_FIELDS,
  ACTIVITY_SENT_EMAIL_FIELDS,
  type ActivityEvent,
  type ActivityExecution,
  type ActivityRecords,
  type ActivitySentEmail,
  type ContactActivityStore,
  type HistoryEntry,
} from '../../domain/contacts/activity-store.js';
import type { SentEmailLogRecord } from '../../domain/sent-emails/sent-email-record.js';
import { batchGetItems } from './batch-get.js';
import { stripKeys } from './items.js';
import { keys } from './keys.js';
import { queryAll } from './query-all.js';
import { TABLE_KEYS } from './table-definition.js';

type HistoryKind = 'EVENT' | 'EXEC' | 'SENT';
const KIND_OF: Record<HistoryKind, HistoryEntry['kind']> = { EVENT: 'event', EXEC: 'execution', SENT: 'sent_email' };
const HISTORY_KINDS = Object.keys(KIND_OF) as HistoryKind[];

/** The log fields the timeline shows (the same as GET /client/sent-emails/{id}). */
const LOG_FIELDS = [
  'id',
  'created_at',
  'status',
  'provider_message_id',
  'url',
  'ip_address',
  'user_agent',
  'is_bot',
  'bot_reason',
  'detail',
] as const;
const SENT_PARTITION_FIELDS = [...new Set(['pk', 'sk', ...ACTIVITY_SENT_EMAIL_FIELDS, ...LOG_FIELDS])];

/**
 * The contact activity timeline's reads (docs/decisions/0080-contact-activity-timeline.md "Contact activity timeline"). gsi2's sort key starts with
 * the kind, so a page is 3 Queries in parallel — one range per kind, newest first, each `limit + 1` keys below the
 * cursor — merged; then 1 BatchGetItem for the events and executions (≤ 100 keys: one call) in parallel with 1 Query
 * per sent e-mail (the e-mail and its logs share a partition). All reads eventually consistent, as gsi2 is.
 */
export class DynamoContactActivityStore implements ContactActivityStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async entries(clientId: number, contactId: number, page: { before?: ActivityPosition; limit: number }) {
    const perKind = await Promise.all(HISTORY_KINDS.map((kind) => this.kindEntries(clientId, contactId, kind, page)));
    const merged = perKind.flat().sort(newestFirst);
    // Each kind gave its limit + 1 newest entries below the cursor: if fewer than limit + 1 came in all, every kind
    // was read to its end; otherwise the (limit + 1)th shows there is more, and no unread entry is newer than it.
    return { entries: merged.slice(0, page.limit), more: merged.length > page.limit };
  }

  async records(clientId: number, entries: readonly HistoryEntry[]): Promise<ActivityRecords> {
    const ids = (kind: HistoryEntry['kind']) => entries.filter((e) => e.kind === kind).map((e) => e.id);
    const events = ids('event') as number[];
    const executions = ids('execution') as number[];
    const [items, sent] = await Promise.all([
      events.length + executions.length === 0
        ? []
        : batchGetItems(
            this.db,
            this.tableName,
            [...events.map((id) => keys.event(clientId, id)), ...executions.map((id) => keys.execution(clientId, id))],
            {
              consistentRead: false,
              attributes: [...new Set([...ACTIVITY_EVENT_FIELDS, ...ACTIVITY_EXECUTION_FIELDS])],
            },
          ),
      Promise.all((ids('sent_email') as string[]).map((id) => this.sentEmail(clientId, id))),
    ]);
    const records: ActivityRecords = { events: new Map(), executions: new Map(), sentEmails: new Map() };
    for (const item of items) {
      if (item['sk'] === keys.executionSk)
        records.executions.set(Number(item['id']), stripKeys<ActivityExecution>(item));
      else records.events.set(Number(item['id']), stripKeys<ActivityEvent>(item));
    }
    for (const found of sent) if (found) records.sentEmails.set(found.email.id, found);
    return records;
  }

  /** One GetItem of the client's journey index, its journeys only (eventually consistent: a name may lag a rename). */
  async journeyNames(clientId: number): Promise<ReadonlyMap<number, string>> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.journeyIndex(clientId),
        ProjectionExpression: '#journeys',
        ExpressionAttributeNames: { '#journeys': 'journeys' },
      }),
    );
    const journeys = (out.Item?.['journeys'] ?? []) as { id: number; name: string }[];
    return new Map(journeys.map((j) => [Number(j.id), String(j.name)]));
  }

  /** One kind's newest `limit + 1` entries strictly below `before` (one Query, keys only). */
  private async kindEntries(
    clientId: number,
    contactId: number,
    kind: HistoryKind,
    page: { before?: ActivityPosition; limit: number },
  ) {
    const { before } = page;
    const mine = KIND_OF[kind];
    // The upper bound is inclusive (BETWEEN): at the cursor's own kind it is the cursor's entry, read once more and dropped.
    const upper =
      before === undefined
        ? undefined
        : before.kind === mine
          ? keys.contactHistory(clientId, contactId, kind, before.at, before.id).gsi2sk
          : keys.contactHistoryAtBound(kind, before.at, kindBelow(mine, before.kind) ? 'through' : 'until');
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi2.name,
        KeyConditionExpression:
          upper === undefined ? '#pk = :pk AND begins_with(#sk, :from)' : '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi2.partitionKey, '#sk': TABLE_KEYS.gsi2.sortKey },
        ExpressionAttributeValues: {
          ':pk': keys.contactHistoryPk(clientId, contactId),
          ':from': keys.contactHistoryKindStart(kind),
          ...(upper === undefined ? {} : { ':to': upper }),
        },
        ScanIndexForward: false,
        // limit + 1 keys of ≤ ~150 bytes: far below a Query's 1 MB page, so Limit alone ends the read.
        Limit: page.limit + 1 + (before?.kind === mine ? 1 : 0),
      }),
    );
    const entries: HistoryEntry[] = [];
    for (const item of out.Items ?? []) {
      const named = keys.contactHistoryOf(String(item[TABLE_KEYS.gsi2.sortKey]));
      if (!named) continue;
      const entry: HistoryEntry = { kind: KIND_OF[named.kind], at: named.createdAt, id: named.id };
      if (before === undefined || compareActivity(entry, before) < 0) entries.push(entry);
    }
    return entries.slice(0, page.limit + 1);
  }

  /** The e-mail and its logs, bodies left out (one Query: they share a partition). */
  private async sentEmail(
    clientId: number,
    sentEmailId: string,
  ): Promise<{ email: ActivitySentEmail; logs: SentEmailLogRecord[] } | undefined> {
    const key = keys.sentEmail(clientId, sentEmailId);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ProjectionExpression: SENT_PARTITION_FIELDS.map((_, i) => `#f${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(SENT_PARTITION_FIELDS.map((name, i) => [`#f${i}`, name])),
      ExpressionAttributeValues: { ':pk': key.pk },
    });
    const email = items.find((item) => item['sk'] === key.sk);
    if (!email) return undefined;
    const logs = items
      .filter((item) => String(item['sk']).startsWith(keys.sentEmailLogPrefix))
      .map((item) => stripKeys<SentEmailLogRecord>(item));
    return { email: stripKeys<ActivitySentEmail>(email), logs };
  }
}
