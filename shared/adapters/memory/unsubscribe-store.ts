import type { SentEmailLogRecord } from '../../domain/sent-emails/sent-email-record.js';
import type {
  PreferenceSaveOutcome,
  PreferenceWrite,
  LinkUnsubscribe,
  LinkUnsubscribeOutcome,
  TopicUnsubscribe,
  TopicUnsubscribeOutcome,
  UnsubscribeStore,
} from '../../domain/links/unsubscribe-store.js';
import { topicChoiceAttributes, topicChoiceOf } from '../../domain/topics/contact-topics.js';
import { clientKey, sentEmailKey, stored, type MemoryAggregates, type MemoryEngineData } from './engine-data.js';
import { linkUnsubscribeLogOf, preferenceLeftDeltas } from '../../domain/links/unsubscribe-store.js';

/**
 * UnsubscribeStore in memory over the contacts and the engine's sent-email logs, with the DynamoDB adapter's
 * condition (contract suite). No `await` between the check and the writes: all or nothing, as the transaction.
 */
export class MemoryUnsubscribeStore implements UnsubscribeStore {
  constructor(
    private readonly aggregates: Pick<MemoryAggregates, 'contacts' | 'topics'>,
    private readonly data: MemoryEngineData,
  ) {}

  async leaveTopic(write: TopicUnsubscribe): Promise<TopicUnsubscribeOutcome> {
    const contact = this.aggregates.contacts.contacts.get(clientKey(write.clientId, write.contactId));
    if (!contact) return 'gone';
    if (topicChoiceOf(contact, write.topicId) === false) return 'not_in_topic';
    Object.assign(contact, {
      ...topicChoiceAttributes(write.topicId, false, write.log.created_at, 'one_click'),
      updated_at: write.log.created_at,
    });
    this.aggregates.topics?.addContactsLeft(write.clientId, { [write.topicId]: 1 });
    this.addLog(write.clientId, write.sentEmailId, linkUnsubscribeLogOf(write));
    return 'left';
  }

  async savePreferences(write: PreferenceWrite): Promise<PreferenceSaveOutcome> {
    const contact = this.aggregates.contacts.contacts.get(clientKey(write.clientId, write.contactId));
    if (!contact) return 'gone';
    if (Object.keys(write.topics).some((id) => topicChoiceOf(contact, Number(id)) !== write.previous[Number(id)]))
      return 'changed';
    this.aggregates.topics?.addContactsLeft(write.clientId, preferenceLeftDeltas(write));
    for (const [topicId, subscribed] of Object.entries(write.topics)) {
      Object.assign(contact, topicChoiceAttributes(Number(topicId), subscribed, write.at, 'preference_page'));
    }
    contact.updated_at = write.at;
    if (write.leaveAll) {
      contact.is_subscribed = false;
      contact.unsubscribed_at ??= write.at;
      contact.unsubscribe_reason ??= write.leaveAll.reason;
    }
    if (write.log) this.addLog(write.clientId, write.sentEmailId, write.log);
    return 'saved';
  }

  /** A log written, and its change reported to the day counters (a rewrite of the same log is a modification). */
  private addLog(clientId: number, sentEmailId: string, log: SentEmailLogRecord): void {
    const k = sentEmailKey(clientId, sentEmailId);
    const logs = this.data.sentEmailLogs.get(k) ?? new Map<string, SentEmailLogRecord>();
    const key = `${log.created_at}#${log.id}`;
    const old = logs.get(key);
    logs.set(key, stored(log));
    this.data.sentEmailLogs.set(k, logs);
    this.data.stats.changed({ entity: 'sent_email_log', clientId, old, new: stored(log) });
  }

  async unsubscribe(write: LinkUnsubscribe): Promise<LinkUnsubscribeOutcome> {
    const { clientId, contactId, sentEmailId, reason, log } = write;
    const contact = this.aggregates.contacts.contacts.get(clientKey(clientId, contactId));
    if (!contact?.is_subscribed) {
      const state = contact && {
        is_subscribed: contact.is_subscribed,
        ...(contact.unsubscribe_reason !== undefined ? { unsubscribe_reason: contact.unsubscribe_reason } : {}),
        ...(contact.unsubscribed_at !== undefined ? { unsubscribed_at: contact.unsubscribed_at } : {}),
      };
      return { status: 'not_subscribed', contact: state };
    }
    Object.assign(contact, { is_subscribed: false, updated_at: log.created_at, unsubscribe_reason: reason });
    contact.unsubscribed_at ??= log.created_at;
    this.addLog(clientId, sentEmailId, linkUnsubscribeLogOf(write));
    return { status: 'unsubscribed' };
  }
}
