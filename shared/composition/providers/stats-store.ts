import { DynamoStatsStore } from '../../adapters/dynamo/stats-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const statsStore = provide('stats', (c) => new DynamoStatsStore(tableOf(c).db, tableOf(c).tableName));
