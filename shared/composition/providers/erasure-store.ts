import { DynamoErasureStore } from '../../adapters/dynamo/erasure-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const erasureStore = provide('erasure', (c) => new DynamoErasureStore(tableOf(c).db, tableOf(c).tableName));
