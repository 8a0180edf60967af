import { DynamoIds } from '../../adapters/dynamo/ids.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Integer ids reserved in blocks from the table's counters. */
export const ids = provide('ids', (c) => new DynamoIds(tableOf(c).db, tableOf(c).tableName));
