import { EMPTY_TOPIC_SET, type TopicSet, type TopicStore } from '../../domain/topics/topic-store.js';

/** Topics in memory, with the Dynamo store's version condition. */
export class MemoryTopicStore implements TopicStore {
  private readonly sets = new Map<number, TopicSet>();

  async load(clientId: number): Promise<TopicSet> {
    return structuredClone(this.sets.get(clientId) ?? EMPTY_TOPIC_SET);
  }

  /** The stored set as it is (no copy), for the memory engine stores' reads. */
  peek(clientId: number): TopicSet | undefined {
    return this.sets.get(clientId);
  }

  async save(clientId: number, next: TopicSet): Promise<boolean> {
    if ((this.sets.get(clientId)?.version ?? 0) !== next.version - 1) return false;
    this.sets.set(clientId, structuredClone(next));
    return true;
  }
}
