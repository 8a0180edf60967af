/** One topic of a client: a kind of marketing mail a contact can leave on its own. */
export interface TopicRecord {
  id: number;
  name: string;
  description: string;
  /** Whether a contact that never chose is subscribed to it. */
  default_subscribed: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * All topics of a client, kept together (one item: at most MAX_TOPICS): the limit and unique names hold under
 * concurrency by one conditional write on `version`, and the send path and the preference page read them in one go.
 */
export interface TopicSet {
  topics: TopicRecord[];
  /** The next topic's id (ids are never reused, so a contact's old choice never applies to a new topic). */
  next_id: number;
  /** 0 before the first topic. */
  version: number;
  /**
   * Topic id → how many contacts' own choice for it is false, kept on the same item but apart from the
   * version: the writes that change a contact's choice move it in their own transaction (ADD), and `save` leaves it
   * as it is. Absent: 0.
   */
  contacts_left?: Record<number, number>;
}

export const EMPTY_TOPIC_SET: TopicSet = { topics: [], next_id: 1, version: 0 };

/** The attribute of the topics item that counts the contacts who left one topic. */
export const contactsLeftAttribute = (topicId: number): string => `contacts_left_${topicId}`;

/** A topic's `contacts_left` in a set as loaded (never below 0: see docs/decisions/0114-contacts-left-per-topic.md). */
export const contactsLeftOf = (set: TopicSet, topicId: number): number =>
  Math.max(0, set.contacts_left?.[topicId] ?? 0);

export interface TopicStore {
  /** The client's topics (one consistent GetItem); EMPTY_TOPIC_SET before the first. */
  load(clientId: number): Promise<TopicSet>;
  /** Writes `next` (not its `contacts_left`) if the stored set is still at `next.version - 1`; false when another write came first. */
  save(clientId: number, next: TopicSet, at: string): Promise<boolean>;
}
