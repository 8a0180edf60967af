/** A contact as stored. Optional strings are absent when empty. */
export interface ContactRecord {
  id: number;
  client_id: number;
  email: string;
  client_contact_id?: string;
  external_id?: string;
  first_name?: string;
  last_name?: string;
  company?: string;
  phone?: string;
  timezone?: string;
  is_subscribed: boolean;
  unsubscribe_reason?: string;
  unsubscribed_at?: string;
  last_purchase_at?: string;
  signup_source?: string;
  source: number;
  /** name → { per-client field id, value }. */
  custom_fields: Record<string, { id: number; value: string | number | boolean | null }>;
  tags: string[];
  active_states: number;
  active_workflow_count: number;
  health_score: number;
  total_emails_sent: number;
  total_emails_opened: number;
  total_emails_clicked: number;
  last_activity_at?: string;
  last_email_opened_at?: string;
  /** The last human click on any of its e-mails (privacy proxies and link scanners never move it). */
  last_email_clicked_at?: string;
  last_workflow_at?: string;
  /** Transient bounce times within the last 30 days (delivery tracking): three suppress the address. */
  transient_bounces?: string[];
  created_by: number;
  created_at: string;
  updated_at: string;
}

export type UniqueField = 'email' | 'client_contact_id';

/** Raised by a store when a contact would take an e-mail or client_contact_id another contact holds. */
export class UniqueViolation extends Error {
  constructor(readonly field: UniqueField) {
    super(`${field} already belongs to another contact`);
    this.name = 'UniqueViolation';
  }
}

/**
 * Raised by a store when a contact would take an e-mail whose lock is a suppression marker: the address of an erased
 * contact that had hard-bounced or complained (docs/decisions/0058-contact-erasure.md "Contact erasure"). It cannot be added again.
 */
export class SuppressedAddress extends Error {
  constructor(readonly reason: string) {
    super(`The address was erased after ${reason}`);
    this.name = 'SuppressedAddress';
  }
}

/** The error text of every path that meets a suppression marker (create, import row, update, event). */
export const SUPPRESSED_ADDRESS_ERROR =
  'This address hard-bounced or complained before its contact was erased; it cannot be added again';

/** What an e-mail lookup answers for a suppression marker instead of a contact id. */
export const SUPPRESSED = 'suppressed' as const;
export type EmailLockOwner = number | typeof SUPPRESSED;

export interface SubscriptionChange {
  is_subscribed: boolean;
  unsubscribe_reason?: string;
  /** Changes this topic's choice only (`topic_<id>`); `is_subscribed` and its reason stay. */
  topic_id?: number;
  at: string;
}

/** One contact write of a bulk import; the store keeps the e-mail and uid locks consistent with it. */
export type ContactWrite =
  | { kind: 'create'; contact: ContactRecord }
  /**
   * `before` is the record as read; only what differs in `after` is written. An e-mail or client_contact_id change
   * moves its lock in the same transaction (a value another contact holds is a `conflict`).
   */
  | { kind: 'update'; before: ContactRecord; after: ContactRecord };

/**
 * What became of one write: `written`; `conflict` — a condition failed for this write (its e-mail or uid is
 * taken, or the contact changed since it was read), so read again and decide again; `cancelled` — not applied
 * only because another write of its transaction failed, safe to send again as it is; `error` — not applied.
 */
export type ContactWriteOutcome =
  | { status: 'written' }
  | { status: 'conflict' }
  | { status: 'cancelled' }
  /**
   * Not written. `retryable`: the same write may land if sent again (throttling, a timeout, the service busy);
   * otherwise the store refused it as given (a value it cannot hold), and sending it again would fail again.
   */
  | { status: 'error'; message: string; retryable: boolean };

export interface ContactWriteOptions {
  /** One write per transaction, so one write's conflict cannot hold back another (the retry path). */
  isolated?: boolean;
}

/** What `GET /client/contacts` filters on (every condition must hold). */
export interface ContactFilter {
  /** Lower-case e-mail prefix. */
  email_prefix?: string;
  is_subscribed?: boolean;
  source?: number;
  /** RFC 3339 UTC; contacts updated at or after it. */
  updated_since?: string;
}

export interface ContactPageQuery {
  /** Only contacts with a larger id (the previous page's position). */
  afterId?: number;
  /** 1–100. */
  limit: number;
  filter: ContactFilter;
}

/**
 * One page of a client's contacts by ascending id. A page may hold fewer than `limit` contacts (a filter thins what
 * was read) and still have a `nextAfterId`; none means the list is done. Each page reads O(limit) items.
 */
export interface ContactPage {
  contacts: ContactRecord[];
  nextAfterId?: number;
}

export interface ContactStore {
  /** A page of the client's contacts, ascending id, filtered (bounded read: see ContactPage). */
  list(clientId: number, query: ContactPageQuery): Promise<ContactPage>;
  /** Writes the contact with its e-mail lock (and uid lock) atomically; throws UniqueViolation or SuppressedAddress. */
  create(contact: ContactRecord): Promise<void>;
  get(clientId: number, contactId: number): Promise<ContactRecord | undefined>;
  getByEmail(clientId: number, email: string): Promise<ContactRecord | undefined>;
  /** Applies the change when the contact exists; undefined when it does not. */
  updateSubscription(
    clientId: number,
    contactId: number,
    change: SubscriptionChange,
  ): Promise<ContactRecord | undefined>;
  /** The per-client ids of these custom field names, defining the missing ones. */
  customFieldIds(clientId: number, names: string[]): Promise<Map<string, number>>;
  /** Bulk: the contact id holding each of these (lower-case) e-mails, or SUPPRESSED for a marker; absent when free. */
  findIdsByEmail(clientId: number, emails: readonly string[]): Promise<Map<string, EmailLockOwner>>;
  /** Bulk: the contact id holding each of these client_contact_ids; absent when free. */
  findIdsByUid(clientId: number, uids: readonly string[]): Promise<Map<string, number>>;
  /** Bulk: the contacts with these ids (missing ones absent). */
  getMany(clientId: number, contactIds: readonly number[]): Promise<Map<number, ContactRecord>>;
}

/**
 * The contact writes of imports and updates, apart from ContactStore so that a function that only creates or reads
 * contacts (events with `auto_create_contact`) does not bundle the bulk writer (the functions' bundle budget).
 */
export interface ContactWrites {
  /** Bulk: applies the writes, each atomically with its locks, and reports each one's outcome in order. */
  writeMany(writes: readonly ContactWrite[], options?: ContactWriteOptions): Promise<ContactWriteOutcome[]>;
}
