import { pingTable } from '../../adapters/dynamo/health-probe.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** One GetItem on the table (the health route). */
export const storeProbe = provide('storeProbe', (c) => ({
  ping: () => pingTable(tableOf(c).db, tableOf(c).tableName),
}));
