import { DynamoIpRateCounter } from '../../adapters/dynamo/ip-rate-counter.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const ipRateCounter = provide(
  'ipRateCounter',
  (c) => new DynamoIpRateCounter(tableOf(c).db, tableOf(c).tableName),
);
