import type { ContactRecord } from '../contacts/contact-store.js';
import type { CountedLogFields, SentEmailLogRecord } from '../sent-emails/sent-email-record.js';
import { contactsLeftDelta } from '../topics/contact-topics.js';

/** A contact's subscription as a write found it. */
export type SubscriptionState = Pick<ContactRecord, 'is_subscribed' | 'unsubscribe_reason' | 'unsubscribed_at'>;

/** What a one-click unsubscribe writes: the contact, and the `unsubscribed` log of the e-mail whose link was used. */
export interface LinkUnsubscribe {
  clientId: number;
  contactId: number;
  sentEmailId: string;
  /** The e-mail's workflow: the unsubscribe is counted on its day row (`unsubscribed_link` day counter). */
  workflowId: number;
  /** A broadcast's e-mail: the unsubscribe counts on the broadcast's totals too. */
  broadcastId?: number;
  /** The contact's `unsubscribe_reason`. */
  reason: string;
  /**
   * The e-mail's `unsubscribed` log, keyed by its `created_at` and id (the same log twice is one item). Its
   * `created_at` is the contact's `updated_at` and, as ContactStore.updateSubscription does, its `unsubscribed_at`
   * unless the contact has one.
   */
  log: SentEmailLogRecord;
}

/** What leaving one topic by a one-click link writes: the contact's choice and the e-mail's log. */
export type TopicUnsubscribe = Omit<LinkUnsubscribe, 'reason'> & { topicId: number };

/** `gone`: no contact any more; `not_in_topic`: it had left the topic already. Either way nothing was written. */
export type TopicUnsubscribeOutcome = 'left' | 'not_in_topic' | 'gone';

/** What the preference page's save writes. */
export interface PreferenceWrite {
  clientId: number;
  contactId: number;
  sentEmailId: string;
  /** topic id → the contact's new choice (`topic_<id>`). */
  topics: Record<number, boolean>;
  /**
   * topic id → the contact's own choice as the page read it (undefined: never chose), for each topic of `topics`.
   * The write lands only if the contact still has these, so each topic's `contacts_left` moves by exactly the change.
   */
  previous: Record<number, boolean | undefined>;
  /** Leave all marketing mail: is_subscribed false, the reason and time kept if the contact has them already. */
  leaveAll?: { reason: string };
  at: string;
  /** The e-mail's `unsubscribed` log, when the save left a topic or all marketing mail. */
  log?: SentEmailLogRecord;
}

export type PreferenceSaveOutcome = 'saved' | 'gone' | 'changed';

/** Each topic's `contacts_left` change of a preference save (topics whose count does not move are absent). */
export function preferenceLeftDeltas(write: Pick<PreferenceWrite, 'topics' | 'previous'>): Record<number, number> {
  const deltas: Record<number, number> = {};
  for (const [id, next] of Object.entries(write.topics)) {
    const delta = contactsLeftDelta(write.previous[Number(id)], next);
    if (delta !== 0) deltas[Number(id)] = delta;
  }
  return deltas;
}

export type LinkUnsubscribeOutcome =
  | { status: 'unsubscribed' }
  /** The contact was not subscribed (or gone: undefined) when the write arrived, as it is now: nothing was written. */
  | { status: 'not_subscribed'; contact: SubscriptionState | undefined };

/**
 * The one write of a one-click unsubscribe (docs/decisions/0067-one-click-unsubscribe.md). Its reads are the sent e-mail's
 * (SentEmailStore.getWithLogs) and the contact's (ContactStore.get).
 */
export interface UnsubscribeStore {
  /**
   * One transaction: the contact, only if it exists and is still subscribed, becomes unsubscribed with `reason`,
   * the e-mail gets `log`, and the workflow's day counter `unsubscribed_link` goes up by one. All land or none does.
   */
  unsubscribe(write: LinkUnsubscribe): Promise<LinkUnsubscribeOutcome>;
  /**
   * One transaction: the contact, only if it exists and had not left the topic (`topic_<id>` absent or true), gets
   * `topic_<id>` = false (its `is_subscribed` and reason stay), the topic's `contacts_left` goes up by one, the e-mail
   * gets `log`, and the workflow's day counter `unsubscribed_link` goes up by one. All land or none does.
   */
  leaveTopic(write: TopicUnsubscribe): Promise<TopicUnsubscribeOutcome>;
  /**
   * One transaction: the contact (only if it exists and its choices of `topics` are still `previous`), each changed
   * topic's `contacts_left`, and the log, if any. `gone`: no contact; `changed`: its choices moved since they were
   * read (nothing written: read again and decide again).
   */
  savePreferences(write: PreferenceWrite): Promise<PreferenceSaveOutcome>;
}

/**
 * The log a one-click unsubscribe writes, saying so (`unsubscribed_by`), with its e-mail's workflow: the day counters
 * count `unsubscribed_link` from it. Only the unsubscribe's own transaction writes it; a repaired log does not count.
 */
export const linkUnsubscribeLogOf = (
  write: Pick<LinkUnsubscribe, 'workflowId' | 'broadcastId' | 'log'>,
): SentEmailLogRecord & CountedLogFields => ({
  ...write.log,
  workflow_id: write.workflowId,
  ...(write.broadcastId !== undefined ? { broadcast_id: write.broadcastId } : {}),
  unsubscribed_by: 'link',
});
