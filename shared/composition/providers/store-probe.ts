import { pingTable } from '../../adapters/dynamo/health-probe.js';
import { provide } from '../container.js';

/** One GetItem on the table (the health route). */
export const storeProbe = provide('storeProbe', (c) => ({ ping: () => pingTable(c.dynamo().db, c.dynamo().tableName) }));
