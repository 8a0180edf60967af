import { QUOTA_SHARD_COUNT } from '../../domain/executions/quota-shards.js';
import type { SentEmailLogRecord } from '../../domain/sent-emails/sent-email-record.js';
import type {
  DeliverabilityDay,
  TrackedMessage,
  TrackingStore,
  TrackingWrite,
} from '../../domain/tracking/tracking-store.js';
import { utcDaysBetween } from '../../domain/time/utc-days.js';
import { openHourAttribute } from '../../domain/tracking/open-hours.js';
import { clientKey, copy, sentEmailKey, stored, type MemoryAggregates, type MemoryEngineData } from './engine-data.js';
import { countedLogOf } from '../../domain/tracking/tracking-store.js';
import { sourceKeyOfMessage } from '../../domain/segments/engagement-source.js';
import { journeyPlaceOf } from '../../domain/executions/execution-record.js';

/** TrackingStore in memory over the engine's shared data and the contacts, with DynamoDB's conditions (contract suite). */
export class MemoryTrackingStore implements TrackingStore {
  constructor(
    private readonly aggregates: Pick<MemoryAggregates, 'contacts'>,
    private readonly data: MemoryEngineData,
  ) {}

  async findMessage(providerMessageId: string): Promise<TrackedMessage | undefined> {
    const found = this.data.providerMessages.get(providerMessageId);
    return (
      found && {
        client_id: found.client_id,
        sent_email_id: found.sent_email_id,
        contact_id: found.contact_id,
        ...(found.workflow_id !== undefined ? { workflow_id: found.workflow_id } : {}),
        ...(found.send_zone !== undefined ? { send_zone: found.send_zone } : {}),
        ...journeyPlaceOf(found),
      }
    );
  }

  async findTaggedMessage(
    clientId: number,
    sentEmailId: string,
    providerMessageId: string,
  ): Promise<TrackedMessage | undefined> {
    const email = this.data.sentEmails.get(sentEmailKey(clientId, sentEmailId));
    if (!email || (email.provider_message_id !== undefined && email.provider_message_id !== providerMessageId))
      return undefined;
    return {
      client_id: clientId,
      sent_email_id: sentEmailId,
      contact_id: email.contact_id,
      workflow_id: email.workflow_id,
      ...journeyPlaceOf(email),
      ...(email.provider_message_id === undefined ? { unconfirmed: true } : {}),
    };
  }

  async logs(clientId: number, sentEmailId: string): Promise<SentEmailLogRecord[]> {
    return [
      ...(this.data.sentEmailLogs.get(sentEmailKey(clientId, sentEmailId)) ?? new Map<string, SentEmailLogRecord>()),
    ]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, log]) => copy(log));
  }

  async transientBounces(clientId: number, contactId: number): Promise<string[] | undefined> {
    const contact = this.aggregates.contacts.contacts.get(clientKey(clientId, contactId)) as
      | Record<string, unknown>
      | undefined;
    if (!contact) return undefined;
    const times = contact['transient_bounces'];
    return Array.isArray(times) ? times.map(String) : [];
  }

  async record(write: TrackingWrite): Promise<'recorded' | 'duplicate'> {
    const { message, log } = write;
    const k = sentEmailKey(message.client_id, message.sent_email_id);
    const logs = this.data.sentEmailLogs.get(k) ?? new Map<string, SentEmailLogRecord>();
    const logKey = `${log.created_at}#${log.id}`;
    if (logs.has(logKey)) return 'duplicate';
    logs.set(logKey, stored(log));
    this.data.sentEmailLogs.set(k, logs);
    const contact = this.aggregates.contacts.contacts.get(clientKey(message.client_id, message.contact_id)) as
      | Record<string, unknown>
      | undefined;
    const change = write.contact;
    const marked: ('open' | 'click')[] = [];
    if (contact && change) {
      // Once per e-mail, as the DynamoDB adapter's marker items guarantee.
      const counts = (kind: 'open' | 'click') => {
        const marker = `${k}\u0000${kind}`;
        if (this.data.countedEngagement.has(marker)) return false;
        this.data.countedEngagement.add(marker);
        marked.push(kind);
        return true;
      };
      if (change.countOpen && counts('open'))
        contact['total_emails_opened'] = Number(contact['total_emails_opened'] ?? 0) + 1;
      if (change.countClick && counts('click'))
        contact['total_emails_clicked'] = Number(contact['total_emails_clicked'] ?? 0) + 1;
      if (change.openHour !== undefined) bump(contact, openHourAttribute(change.openHour));
      if (change.lastOpenedAt) contact['last_email_opened_at'] = change.lastOpenedAt;
      if (change.lastClickedAt) contact['last_email_clicked_at'] = change.lastClickedAt;
      if (change.lastActivityAt) contact['last_activity_at'] = change.lastActivityAt;
      const source = sourceKeyOfMessage(message);
      if (source && (change.lastOpenedAt || change.lastClickedAt))
        this.data.contactEngagement.apply(message.client_id, message.contact_id, {
          source,
          ...(change.lastOpenedAt ? { openedAt: change.lastOpenedAt } : {}),
          ...(change.lastClickedAt ? { clickedAt: change.lastClickedAt } : {}),
        });
      if (change.suppress) {
        Object.assign(contact, {
          is_subscribed: false,
          unsubscribe_reason: change.suppress.reason,
          updated_at: change.suppress.at,
        });
        contact['unsubscribed_at'] ??= change.suppress.at;
      }
      if (change.transientBounces) contact['transient_bounces'] = [...change.transientBounces];
    }
    // The log as the DynamoDB adapter writes it once the markers are known, and its change to the day counters.
    const counted = stored(countedLogOf(write, marked));
    logs.set(logKey, counted);
    this.data.stats.changed({ entity: 'sent_email_log', clientId: message.client_id, new: counted });
    const counter = write.deliverability;
    if (counter && (counter.bounce || counter.complaint)) {
      const mk = `${message.client_id}\u0000${counter.day.slice(0, 7)}`;
      const counts = this.data.deliverability.get(mk) ?? {};
      const dd = counter.day.slice(8, 10);
      if (counter.bounce) counts[`b${dd}`] = (counts[`b${dd}`] ?? 0) + 1;
      if (counter.complaint) counts[`c${dd}`] = (counts[`c${dd}`] ?? 0) + 1;
      this.data.deliverability.set(mk, counts);
    }
    return 'recorded';
  }

  async addClientOpenHour(clientId: number, hour: number): Promise<void> {
    const histogram = this.data.clientOpenHours.get(clientId) ?? {};
    bump(histogram, openHourAttribute(hour));
    this.data.clientOpenHours.set(clientId, histogram);
  }

  async deliverabilityDays(clientId: number, fromDay: string, toDay: string): Promise<DeliverabilityDay[]> {
    return utcDaysBetween(fromDay, toDay).map((day) => {
      const month = day.slice(0, 7);
      const dd = day.slice(8, 10);
      const counts = this.data.deliverability.get(`${clientId}\u0000${month}`) ?? {};
      let sends = 0;
      for (let shard = 0; shard < QUOTA_SHARD_COUNT; shard += 1)
        sends += this.data.quota.get(`${clientId}\u0000${month}\u0000${shard}`)?.[`d${dd}`] ?? 0;
      return { day, sends, bounces: counts[`b${dd}`] ?? 0, complaints: counts[`c${dd}`] ?? 0 };
    });
  }
}

/** DynamoDB's `ADD attribute 1`: an absent attribute counts from 0. */
function bump(item: Record<string, unknown>, attribute: string): void {
  item[attribute] = Number(item[attribute] ?? 0) + 1;
}
