import { DynamoTopicStore } from '../../adapters/dynamo/topic-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** A client's topics (issue 24 §3): one item, read consistently. */
export const topicStore = provide('topics', (c) => new DynamoTopicStore(tableOf(c).db, tableOf(c).tableName));
