import { DynamoRecipientStore } from '../../adapters/dynamo/recipient-store.js';
import { provide } from '../container.js';
import { configCacheOf } from './config-cache.js';
import { tableOf } from './table.js';

/** The broadcast engine's items (settings, profile and topics through the config cache). */
export const recipientStore = provide(
  'recipients',
  (c) => new DynamoRecipientStore(tableOf(c).db, tableOf(c).tableName, configCacheOf(c)),
);
