import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EMPTY_TOPIC_SET, type TopicSet, type TopicStore } from '../../domain/topics/topic-store.js';
import { keys } from './keys.js';

/**
 * A client's topics in one item, `CLIENT#<id>` / `TOPICS` (client configuration, written rarely, at most 20 small
 * entries): every change is one Put conditioned on the version read, so the limit and unique names hold under
 * concurrency, and one GetItem (or one key of the send path's BatchGetItem) reads them all.
 */
export class DynamoTopicStore implements TopicStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async load(clientId: number): Promise<TopicSet> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.topics(clientId), ConsistentRead: true }));
    return topicSetOf(out.Item);
  }

  async save(clientId: number, next: TopicSet, at: string): Promise<boolean> {
    const previous = next.version - 1;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.topics(clientId), topics: next.topics, next_id: next.next_id, version: next.version, updated_at: at },
          ConditionExpression: previous === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
          ...(previous === 0 ? {} : { ExpressionAttributeValues: { ':v': previous } }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

/** The stored item as a TopicSet (EMPTY_TOPIC_SET when absent). */
export function topicSetOf(item: Record<string, unknown> | undefined): TopicSet {
  if (!item) return EMPTY_TOPIC_SET;
  return { topics: (item['topics'] as TopicSet['topics']) ?? [], next_id: Number(item['next_id'] ?? 1), version: Number(item['version'] ?? 0) };
}
