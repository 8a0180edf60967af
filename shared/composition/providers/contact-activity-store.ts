import { DynamoContactActivityStore } from '../../adapters/dynamo/contact-activity-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** A contact's timeline: its gsi2 history entries and the records they name. */
export const contactActivityStore = provide(
  'contactActivity',
  (c) => new DynamoContactActivityStore(tableOf(c).db, tableOf(c).tableName),
);
