import { DynamoExecutionStore } from '../../adapters/dynamo/execution-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Executions and their per-client listing. */
export const executionStore = provide(
  'executions',
  (c) => new DynamoExecutionStore(tableOf(c).db, tableOf(c).tableName),
);
