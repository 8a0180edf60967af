import { DynamoRateCounter } from '../../adapters/dynamo/rate-counter.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const rateCounter = provide('rateCounter', (c) => new DynamoRateCounter(tableOf(c).db, tableOf(c).tableName));
