import { EMPTY_TOPIC_SET, type TopicSet, type TopicStore } from '../../domain/topics/topic-store.js';

/**
 * Topics in memory, with the Dynamo store's version condition. Each topic's `contacts_left` is kept apart from the
 * set, as on the Dynamo item: `save` never touches it, the contact writes move it (`addContactsLeft`).
 */
export class MemoryTopicStore implements TopicStore {
  private readonly sets = new Map<number, TopicSet>();
  private readonly left = new Map<number, Record<number, number>>();

  async load(clientId: number): Promise<TopicSet> {
    const set = structuredClone(this.sets.get(clientId) ?? EMPTY_TOPIC_SET);
    return { ...set, contacts_left: { ...this.left.get(clientId) } };
  }

  /** The stored set as it is (no copy), for the memory engine stores' reads. */
  peek(clientId: number): TopicSet | undefined {
    return this.sets.get(clientId);
  }

  async save(clientId: number, next: TopicSet): Promise<boolean> {
    if ((this.sets.get(clientId)?.version ?? 0) !== next.version - 1) return false;
    const { contacts_left: _left, ...set } = next;
    this.sets.set(clientId, structuredClone(set));
    return true;
  }

  /** The Dynamo transactions' `ADD contacts_left_<id> :n`, called in the same synchronous step as the contact's change. */
  addContactsLeft(clientId: number, deltas: Record<number, number>): void {
    const counts = this.left.get(clientId) ?? {};
    for (const [topicId, delta] of Object.entries(deltas)) {
      if (delta !== 0) counts[Number(topicId)] = (counts[Number(topicId)] ?? 0) + delta;
    }
    this.left.set(clientId, counts);
  }
}
