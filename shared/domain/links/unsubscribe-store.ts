import type { ContactRecord } from '../contacts/contact-store.js';
import type { SentEmailLogRecord } from '../sent-emails/sent-email-record.js';

/** A contact's subscription as a write found it. */
export type SubscriptionState = Pick<ContactRecord, 'is_subscribed' | 'unsubscribe_reason' | 'unsubscribed_at'>;

/** What a one-click unsubscribe writes: the contact, and the `unsubscribed` log of the e-mail whose link was used. */
export interface LinkUnsubscribe {
  clientId: number;
  contactId: number;
  sentEmailId: string;
  /** The contact's `unsubscribe_reason`. */
  reason: string;
  /**
   * The e-mail's `unsubscribed` log, keyed by its `created_at` and id (the same log twice is one item). Its
   * `created_at` is the contact's `updated_at` and, as ContactStore.updateSubscription does, its `unsubscribed_at`
   * unless the contact has one.
   */
  log: SentEmailLogRecord;
}

export type LinkUnsubscribeOutcome =
  | { status: 'unsubscribed' }
  /** The contact was not subscribed (or gone: undefined) when the write arrived, as it is now: nothing was written. */
  | { status: 'not_subscribed'; contact: SubscriptionState | undefined };

/**
 * The one write of a one-click unsubscribe (docs/decisions.md, issue 18 §3). Its reads are the sent e-mail's
 * (SentEmailStore.getWithLogs) and the contact's (ContactStore.get).
 */
export interface UnsubscribeStore {
  /**
   * One transaction: the contact, only if it exists and is still subscribed, becomes unsubscribed with `reason`,
   * and the e-mail gets `log`. Both writes land or neither does.
   */
  unsubscribe(write: LinkUnsubscribe): Promise<LinkUnsubscribeOutcome>;
}
