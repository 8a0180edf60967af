import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { QUOTA_SHARD_COUNT } from '../../domain/executions/quota-shards.js';
import { utcDaysBetween } from '../../domain/time/utc-days.js';
import { openHourAttribute } from '../../domain/tracking/open-hours.js';
import type { SentEmailLogRecord } from '../../domain/sent-emails/sent-email-record.js';
import type {
  ContactTracking,
  DeliverabilityDay,
  TrackedMessage,
  TrackingStore,
  TrackingWrite,
} from '../../domain/tracking/tracking-store.js';
import { batchGetItems } from './batch-get.js';
import { stripKeys } from './items.js';
import { keys, type ItemKey } from './keys.js';
import { queryAll } from './query-all.js';
import { quotaDayAttribute } from './quota-counter.js';
import { sendTransaction } from './transactions.js';
import { countedLogOf } from '../../domain/tracking/tracking-store.js';
import { broadcastPlaceOf, journeyPlaceOf } from '../../domain/executions/execution-record.js';
import { sourceKeyOfMessage } from '../../domain/segments/engagement-source.js';
import { engagementUpdate } from './engagement-facts.js';

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const bounceAttribute = (day: string) => `b${day.slice(8, 10)}`;
const complaintAttribute = (day: string) => `c${day.slice(8, 10)}`;

/**
 * The status pipeline's reads and its one transaction (docs/capacity.md, request plan "status notification"): a known
 * message costs a GetItem of its `MSG#` item, a Query of the e-mail's logs for opens and clicks (bot timing, first
 * human open), and one TransactWriteItems [log (only if new), contact, deliverability counter].
 */
export class DynamoTrackingStore implements TrackingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findMessage(providerMessageId: string): Promise<TrackedMessage | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.providerMessage(providerMessageId), ConsistentRead: true }),
    );
    return out.Item ? messageOf(out.Item) : undefined;
  }

  async findTaggedMessage(
    clientId: number,
    sentEmailId: string,
    providerMessageId: string,
  ): Promise<TrackedMessage | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.sentEmail(clientId, sentEmailId),
        ProjectionExpression:
          'client_id, id, contact_id, workflow_id, step_id, arms, broadcast_id, variant, ab_test, provider_message_id, erased_at',
        ConsistentRead: true,
      }),
    );
    const item = out.Item;
    // An erased contact's e-mail records nothing more (no ip or user agent of a late open): docs/decisions/0058-contact-erasure.md.
    if (!item || item['client_id'] !== clientId || item['erased_at'] !== undefined) return undefined;
    const recorded = item['provider_message_id'];
    if (recorded !== undefined && recorded !== providerMessageId) return undefined;
    return {
      client_id: clientId,
      sent_email_id: String(item['id']),
      contact_id: Number(item['contact_id']),
      ...(typeof item['workflow_id'] === 'number' ? { workflow_id: item['workflow_id'] } : {}),
      ...journeyPlaceOf(item),
      ...broadcastPlaceOf(item),
      ...(recorded === undefined ? { unconfirmed: true } : {}),
    };
  }

  async logs(clientId: number, sentEmailId: string): Promise<SentEmailLogRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
      ExpressionAttributeValues: { ':pk': keys.sentEmail(clientId, sentEmailId).pk, ':log': keys.sentEmailLogPrefix },
      ConsistentRead: true,
    });
    return items.map((item) => stripKeys<SentEmailLogRecord>(item));
  }

  async transientBounces(clientId: number, contactId: number): Promise<string[] | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.contact(clientId, contactId),
        ProjectionExpression: 'id, transient_bounces',
        ConsistentRead: true,
      }),
    );
    if (!out.Item) return undefined;
    const times = out.Item['transient_bounces'];
    return Array.isArray(times) ? times.map(String) : [];
  }

  async record(write: TrackingWrite): Promise<'recorded' | 'duplicate'> {
    const { message, log } = write;
    // The log says what the day counters count from it; which human open or click was the e-mail's first is known
    // only per attempt (the marker it writes), so the log is built with each.
    const logPut = (markers: readonly ('open' | 'click')[]): TransactItem => ({
      Put: {
        TableName: this.tableName,
        Item: {
          ...keys.sentEmailLogItem(message.client_id, message.sent_email_id, log.created_at, log.id),
          ...withoutUndefined(countedLogOf(write, markers)),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
    const counter = write.deliverability && this.deliverabilityUpdate(message.client_id, write.deliverability);
    // The e-mail's first human open / click raises the contact's count once: a marker item per e-mail, written only
    // if absent, guards it against two notifications of one e-mail handled at the same instant.
    let change = write.contact;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const markers = (['open', 'click'] as const).filter((kind) =>
        kind === 'open' ? change?.countOpen : change?.countClick,
      );
      const contact = change && contactUpdate(this.tableName, message, change);
      // The contact's engagement with the e-mail's journey or broadcast moves with its own figures (last, so the
      // cancellation reasons above keep their places); an erased contact cancels both, and the retry writes neither.
      const engagement = contact && change && sourceEngagementUpdate(this.tableName, message, change);
      const items: TransactItem[] = [
        logPut(markers),
        ...(contact ? [contact] : []),
        ...markers.map((kind) => this.markerPut(message, kind, log.created_at)),
        ...(counter ? [counter] : []),
        ...(engagement ? [engagement] : []),
      ];
      // The log alone (a send or a delivery, most notifications): one conditional Put does what a one-item
      // transaction does at half its write units. Retried by the SDK after a lost answer, it meets its own log and
      // answers duplicate, as a second notification would: the log is written either way, and an unconfirmed send
      // it would have woken is settled from that log when its lease ends (settle-claim.ts).
      if (items.length === 1) return this.putLogAlone(logPut(markers));
      try {
        await sendTransaction(this.db, new TransactWriteCommand({ TransactItems: items }));
        return 'recorded';
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const failed = (i: number) => error.CancellationReasons?.[i]?.Code === 'ConditionalCheckFailed';
        if (failed(0)) return 'duplicate';
        const markerAt = contact ? 2 : 1;
        if (contact && failed(1)) {
          // The contact was erased meanwhile: the e-mail's history still gets its log.
          change = undefined;
          continue;
        }
        const taken = markers.filter((_, i) => failed(markerAt + i));
        if (taken.length === 0 || !change) throw error;
        // Another notification of this e-mail counted it first: keep the activity times, not the count.
        change = {
          ...change,
          ...(taken.includes('open') ? { countOpen: false } : {}),
          ...(taken.includes('click') ? { countClick: false } : {}),
        };
      }
    }
    throw new Error(`tracking write for ${message.sent_email_id} kept conflicting`);
  }

  private async putLogAlone(item: TransactItem): Promise<'recorded' | 'duplicate'> {
    try {
      await this.db.send(new PutCommand(item.Put!));
      return 'recorded';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'duplicate';
      throw error;
    }
  }

  /** One UpdateItem `ADD open_hNN 1` on the client's `OPENHOURS#` item (created by the first). */
  async addClientOpenHour(clientId: number, hour: number): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.clientOpenHours(clientId),
        UpdateExpression: 'ADD #h :one',
        ExpressionAttributeNames: { '#h': openHourAttribute(hour) },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  }

  private markerPut(message: TrackedMessage, kind: 'open' | 'click', at: string): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...keys.engagementMarker(message.client_id, message.sent_email_id, kind), created_at: at },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  async deliverabilityDays(clientId: number, fromDay: string, toDay: string): Promise<DeliverabilityDay[]> {
    const days = utcDaysBetween(fromDay, toDay);
    const months = [...new Set(days.map((day) => day.slice(0, 7)))];
    const wanted: ItemKey[] = months.flatMap((month) => [
      keys.deliverability(clientId, month),
      ...Array.from({ length: QUOTA_SHARD_COUNT }, (_, shard) => keys.quota(clientId, month, shard)),
    ]);
    const items = await batchGetItems(this.db, this.tableName, wanted, { consistentRead: false });
    const byPk = new Map(items.map((item) => [String(item['pk']), item]));
    const number = (item: Record<string, unknown> | undefined, attribute: string) => {
      const value = item?.[attribute];
      return typeof value === 'number' ? value : 0;
    };
    return days.map((day) => {
      const month = day.slice(0, 7);
      const counts = byPk.get(keys.deliverability(clientId, month).pk);
      let sends = 0;
      for (let shard = 0; shard < QUOTA_SHARD_COUNT; shard += 1) {
        sends += number(byPk.get(keys.quota(clientId, month, shard).pk), quotaDayAttribute(day));
      }
      return {
        day,
        sends,
        bounces: number(counts, bounceAttribute(day)),
        complaints: number(counts, complaintAttribute(day)),
      };
    });
  }

  private deliverabilityUpdate(
    clientId: number,
    change: NonNullable<TrackingWrite['deliverability']>,
  ): TransactItem | undefined {
    const adds: string[] = [];
    const names: Record<string, string> = {};
    if (change.bounce) (names['#b'] = bounceAttribute(change.day)), adds.push('#b :one');
    if (change.complaint) (names['#c'] = complaintAttribute(change.day)), adds.push('#c :one');
    if (adds.length === 0) return undefined;
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.deliverability(clientId, change.day.slice(0, 7)),
        UpdateExpression: `ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
}

function messageOf(item: Record<string, unknown>): TrackedMessage | undefined {
  const clientId = item['client_id'];
  const sentEmailId = item['sent_email_id'];
  const contactId = item['contact_id'];
  if (typeof clientId !== 'number' || typeof sentEmailId !== 'string' || typeof contactId !== 'number')
    return undefined;
  const zone = item['send_zone'];
  const workflowId = item['workflow_id'];
  return {
    client_id: clientId,
    sent_email_id: sentEmailId,
    contact_id: contactId,
    ...(typeof workflowId === 'number' ? { workflow_id: workflowId } : {}),
    ...(typeof zone === 'string' ? { send_zone: zone } : {}),
    ...journeyPlaceOf(item),
    ...broadcastPlaceOf(item),
  };
}

/** The human open / click of an e-mail of a journey or broadcast on the contact's `ENG#<source>` item; none otherwise. */
function sourceEngagementUpdate(
  tableName: string,
  message: TrackedMessage,
  change: ContactTracking,
): TransactItem | undefined {
  const source = sourceKeyOfMessage(message);
  if (!source || (!change.lastOpenedAt && !change.lastClickedAt)) return undefined;
  return engagementUpdate(tableName, message.client_id, message.contact_id, {
    source,
    ...(change.lastOpenedAt ? { openedAt: change.lastOpenedAt } : {}),
    ...(change.lastClickedAt ? { clickedAt: change.lastClickedAt } : {}),
  });
}

/** The contact's side of one notification, conditioned on the contact existing (an Update would create a bare item). */
function contactUpdate(tableName: string, message: TrackedMessage, change: ContactTracking): TransactItem | undefined {
  const set: string[] = [];
  const add: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.countOpen) add.push('total_emails_opened :one');
  if (change.countClick) add.push('total_emails_clicked :one');
  // The open-hour histogram's bucket: an attribute per hour, so ADD works before the first open.
  if (change.openHour !== undefined) add.push(`${openHourAttribute(change.openHour)} :one`);
  if (add.length > 0) values[':one'] = 1;
  if (change.lastOpenedAt) set.push('last_email_opened_at = :opened'), (values[':opened'] = change.lastOpenedAt);
  if (change.lastClickedAt) set.push('last_email_clicked_at = :clicked'), (values[':clicked'] = change.lastClickedAt);
  if (change.lastActivityAt) set.push('last_activity_at = :activity'), (values[':activity'] = change.lastActivityAt);
  if (change.suppress) {
    set.push(
      'is_subscribed = :false',
      'unsubscribe_reason = :reason',
      'unsubscribed_at = if_not_exists(unsubscribed_at, :at)',
      'updated_at = :at',
    );
    Object.assign(values, { ':false': false, ':reason': change.suppress.reason, ':at': change.suppress.at });
  }
  if (change.transientBounces) set.push('transient_bounces = :tb'), (values[':tb'] = change.transientBounces);
  if (set.length === 0 && add.length === 0) return undefined;
  return {
    Update: {
      TableName: tableName,
      Key: keys.contact(message.client_id, message.contact_id),
      UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', add.length ? `ADD ${add.join(', ')}` : '']
        .filter(Boolean)
        .join(' '),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    },
  };
}

const withoutUndefined = (record: object) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
