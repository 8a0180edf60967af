import { DynamoContactWrites } from '../../adapters/dynamo/contact-writes.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Imports and updates only: the bulk writer stays out of the bundles that merely create or read contacts. */
export const contactWrites = provide(
  'contactWrites',
  (c) => new DynamoContactWrites(tableOf(c).db, tableOf(c).tableName),
);
