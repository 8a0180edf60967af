import { DynamoUnsubscribeStore } from '../../adapters/dynamo/unsubscribe-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** The one-click unsubscribe's one transaction: the contact and the e-mail's `unsubscribed` log. */
export const unsubscribeStore = provide(
  'unsubscribe',
  (c) => new DynamoUnsubscribeStore(tableOf(c).db, tableOf(c).tableName),
);
