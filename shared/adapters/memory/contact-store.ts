import type {
  ContactFilter,
  ContactPage,
  ContactPageQuery,
  ContactRecord,
  ContactStore,
  ContactWrite,
  ContactWriteOutcome,
  SubscriptionChange,
} from '../../domain/contacts/contact-store.js';
import { UniqueViolation } from '../../domain/contacts/contact-store.js';
import { contactsLeftDelta, topicChoiceAttributes, topicChoiceOf } from '../../domain/topics/contact-topics.js';
import type { MemoryTopicStore } from './topic-store.js';
import { isSuppressionReason } from '../../domain/contacts/suppression.js';

const key = (clientId: number, value: string | number): string => `${clientId}\u0000${value}`;
const copy = <T>(value: T): T => structuredClone(value);

/**
 * ContactStore in memory, with the DynamoDB adapter's contract (test/integration/contracts): the e-mail and
 * client_contact_id locks are kept with the contact, and every write is all-or-nothing. Each bulk write is applied
 * on its own, so this adapter never answers `cancelled`.
 */
export class MemoryContactStore implements ContactStore {
  readonly contacts = new Map<string, ContactRecord>();
  private readonly emailLocks = new Map<string, number>();
  private readonly uidLocks = new Map<string, number>();
  private readonly customFields = new Map<string, number>();
  private nextFieldId = 1;

  /** `topics`: where a topic choice moves its topic's `contacts_left`; absent, no counts are kept. */
  constructor(private readonly topics?: MemoryTopicStore) {}

  async create(contact: ContactRecord): Promise<void> {
    this.assertCreatable(contact);
    this.put(contact);
  }

  async list(clientId: number, query: ContactPageQuery): Promise<ContactPage> {
    const matching = [...this.contacts.values()]
      .filter((c) => c.client_id === clientId && c.id > (query.afterId ?? 0) && matchesFilter(c, query.filter))
      .sort((a, b) => a.id - b.id);
    const page = matching.slice(0, query.limit).map((c) => copy(c));
    return matching.length > query.limit ? { contacts: page, nextAfterId: page.at(-1)!.id } : { contacts: page };
  }

  async get(clientId: number, contactId: number): Promise<ContactRecord | undefined> {
    const found = this.contacts.get(key(clientId, contactId));
    return found && copy(found);
  }

  async getByEmail(clientId: number, email: string): Promise<ContactRecord | undefined> {
    const id = this.emailLocks.get(key(clientId, email));
    return id === undefined ? undefined : this.get(clientId, id);
  }

  async updateSubscription(
    clientId: number,
    contactId: number,
    change: SubscriptionChange,
  ): Promise<ContactRecord | undefined> {
    const stored = this.contacts.get(key(clientId, contactId));
    if (!stored) return undefined;
    const wasSuppressed = stored.is_subscribed === false && isSuppressionReason(stored.unsubscribe_reason);
    stored.updated_at = change.at;
    if (change.topic_id !== undefined) {
      // The topic's count moves with the choice, in the same step (the Dynamo adapter's transaction).
      this.topics?.addContactsLeft(clientId, {
        [change.topic_id]: contactsLeftDelta(topicChoiceOf(stored, change.topic_id), change.is_subscribed),
      });
      Object.assign(stored, topicChoiceAttributes(change.topic_id, change.is_subscribed, change.at, 'api'));
      return copy(stored);
    }
    stored.is_subscribed = change.is_subscribed;
    if (change.is_subscribed) {
      delete stored.unsubscribed_at;
      delete stored.unsubscribe_reason;
    } else {
      // The first unsubscription time is kept when an unsubscribed contact is unsubscribed again.
      stored.unsubscribed_at ??= change.at;
      // A suppression reason (a bounce, a complaint) is never replaced: transactional mail must keep skipping it.
      if (change.unsubscribe_reason !== undefined && !wasSuppressed)
        stored.unsubscribe_reason = change.unsubscribe_reason;
    }
    return copy(stored);
  }

  async customFieldIds(clientId: number, names: string[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const name of new Set(names)) {
      const k = key(clientId, name);
      if (!this.customFields.has(k)) this.customFields.set(k, this.nextFieldId++);
      ids.set(name, this.customFields.get(k)!);
    }
    return ids;
  }

  async findIdsByEmail(clientId: number, emails: readonly string[]): Promise<Map<string, number>> {
    return this.owners(this.emailLocks, clientId, emails);
  }

  async findIdsByUid(clientId: number, uids: readonly string[]): Promise<Map<string, number>> {
    return this.owners(this.uidLocks, clientId, uids);
  }

  async getMany(clientId: number, contactIds: readonly number[]): Promise<Map<number, ContactRecord>> {
    const found = new Map<number, ContactRecord>();
    for (const id of contactIds) {
      const contact = this.contacts.get(key(clientId, id));
      if (contact) found.set(id, copy(contact));
    }
    return found;
  }

  async writeMany(writes: readonly ContactWrite[]): Promise<ContactWriteOutcome[]> {
    return writes.map((write) => {
      if (write.kind === 'create') {
        try {
          this.assertCreatable(write.contact);
        } catch {
          return { status: 'conflict' };
        }
        this.put(write.contact);
        return { status: 'written' };
      }
      const { before, after } = write;
      if (before.id !== after.id || before.client_id !== after.client_id)
        throw new Error('An update keeps the contact id and client');
      const stored = this.contacts.get(key(before.client_id, before.id));
      // The same guards as the DynamoDB transaction: the contact still has its e-mail and the uid read, the new
      // e-mail and uid are free.
      if (!stored || stored.email !== before.email) return { status: 'conflict' };
      const uidChanges = (before.client_contact_id ?? '') !== (after.client_contact_id ?? '');
      const emailChanges = before.email !== after.email;
      if (uidChanges) {
        if ((stored.client_contact_id ?? '') !== (before.client_contact_id ?? '')) return { status: 'conflict' };
        if (after.client_contact_id && this.uidLocks.has(key(after.client_id, after.client_contact_id)))
          return { status: 'conflict' };
      }
      if (emailChanges && this.emailLocks.has(key(after.client_id, after.email))) return { status: 'conflict' };
      if (uidChanges) {
        if (before.client_contact_id) this.uidLocks.delete(key(before.client_id, before.client_contact_id));
        if (after.client_contact_id) this.uidLocks.set(key(after.client_id, after.client_contact_id), after.id);
      }
      if (emailChanges) {
        this.emailLocks.delete(key(before.client_id, before.email));
        this.emailLocks.set(key(after.client_id, after.email), after.id);
      }
      // Only what differs between before and after is written; other writers' attributes stay.
      const merged: Record<string, unknown> = { ...stored };
      for (const attribute of new Set([...Object.keys(before), ...Object.keys(after)])) {
        const was = (before as unknown as Record<string, unknown>)[attribute];
        const now = (after as unknown as Record<string, unknown>)[attribute];
        if (JSON.stringify(was) === JSON.stringify(now)) continue;
        if (now === undefined) delete merged[attribute];
        else merged[attribute] = copy(now);
      }
      this.contacts.set(key(before.client_id, before.id), merged as unknown as ContactRecord);
      return { status: 'written' };
    });
  }

  private assertCreatable(contact: ContactRecord): void {
    if (this.emailLocks.has(key(contact.client_id, contact.email))) throw new UniqueViolation('email');
    if (contact.client_contact_id && this.uidLocks.has(key(contact.client_id, contact.client_contact_id))) {
      throw new UniqueViolation('client_contact_id');
    }
    if (this.contacts.has(key(contact.client_id, contact.id))) throw new Error(`contact ${contact.id} exists`);
  }

  private put(contact: ContactRecord): void {
    const stored = Object.fromEntries(
      Object.entries(copy(contact)).filter(([, v]) => v !== undefined),
    ) as unknown as ContactRecord;
    this.contacts.set(key(contact.client_id, contact.id), stored);
    this.emailLocks.set(key(contact.client_id, contact.email), contact.id);
    if (contact.client_contact_id) this.uidLocks.set(key(contact.client_id, contact.client_contact_id), contact.id);
  }

  private owners(locks: Map<string, number>, clientId: number, values: readonly string[]): Map<string, number> {
    const owners = new Map<string, number>();
    for (const value of values) {
      const id = locks.get(key(clientId, value));
      if (id !== undefined) owners.set(value, id);
    }
    return owners;
  }
}

/** The list filter, as the DynamoDB adapter's FilterExpression reads it. */
export function matchesFilter(c: ContactRecord, filter: ContactFilter): boolean {
  if (filter.email_prefix !== undefined && !c.email.startsWith(filter.email_prefix)) return false;
  if (filter.is_subscribed !== undefined && c.is_subscribed !== filter.is_subscribed) return false;
  if (filter.source !== undefined && c.source !== filter.source) return false;
  if (filter.updated_since !== undefined && !(c.updated_at >= filter.updated_since)) return false;
  return true;
}
