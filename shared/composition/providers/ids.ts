import { DynamoIds } from '../../adapters/dynamo/ids.js';
import { provide } from '../container.js';

/** Integer ids reserved in blocks from the table's counters. */
export const ids = provide('ids', (c) => new DynamoIds(c.dynamo().db, c.dynamo().tableName));
