import { DynamoDayCountersProjection } from '../../adapters/dynamo/day-counters-projection.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** The day counters' projection of the change stream (the only writer of the day rows), with the configured retention. */
export const dayCounters = provide(
  'dayCounters',
  (c) => new DynamoDayCountersProjection(tableOf(c).db, tableOf(c).tableName, c.config.STATS_RETENTION_DAYS),
);
