import { DynamoExecutionStore } from '../../adapters/dynamo/execution-store.js';
import { provide } from '../container.js';

/** Executions and their per-client listing. */
export const executionStore = provide('executions', (c) => new DynamoExecutionStore(c.dynamo().db, c.dynamo().tableName));
