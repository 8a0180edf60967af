import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EMPTY_TOPIC_SET, type TopicSet, type TopicStore } from '../../domain/topics/topic-store.js';
import { keys } from './keys.js';

/**
 * A client's topics in one item, `CLIENT#<id>` / `TOPICS` (client configuration, written rarely, at most 20 small
 * entries): every change is one UpdateItem conditioned on the version read, so the limit and unique names hold under
 * concurrency, and one GetItem (or one key of the send path's BatchGetItem) reads them all. The same item keeps each
 * topic's `contacts_left_<id>`, moved by ADD in the transactions that change a contact's choice: a
 * save SETs the topics, never the whole item, so it cannot undo a count, and a count never moves the version.
 */
export class DynamoTopicStore implements TopicStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async load(clientId: number): Promise<TopicSet> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.topics(clientId), ConsistentRead: true }),
    );
    return topicSetOf(out.Item);
  }

  async save(clientId: number, next: TopicSet, at: string): Promise<boolean> {
    const previous = next.version - 1;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.topics(clientId),
          UpdateExpression: 'SET topics = :topics, next_id = :next, version = :version, updated_at = :at',
          // No version yet: the first topic (an item holding only counts, left by a late ADD, counts as none).
          ConditionExpression: previous === 0 ? 'attribute_not_exists(version)' : 'version = :v',
          ExpressionAttributeValues: {
            ':topics': next.topics,
            ':next': next.next_id,
            ':version': next.version,
            ':at': at,
            ...(previous === 0 ? {} : { ':v': previous }),
          },
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
  const left: Record<number, number> = {};
  for (const [name, value] of Object.entries(item)) {
    const id = /^contacts_left_(\d+)$/.exec(name)?.[1];
    if (id !== undefined && typeof value === 'number') left[Number(id)] = value;
  }
  return {
    topics: (item['topics'] as TopicSet['topics']) ?? [],
    next_id: Number(item['next_id'] ?? 1),
    version: Number(item['version'] ?? 0),
    contacts_left: left,
  };
}
