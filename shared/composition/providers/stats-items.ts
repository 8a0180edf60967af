import { StatsItems } from '../../adapters/dynamo/stats-items.js';
import type { Container } from '../container.js';
import { tableOf } from './table.js';

/** The day counters' update items every fact-recording store adds to its transactions, with the configured retention. */
export const statsItemsOf = (c: Container): StatsItems =>
  new StatsItems(tableOf(c).tableName, c.config.STATS_RETENTION_DAYS);
