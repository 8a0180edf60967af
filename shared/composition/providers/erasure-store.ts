import { DynamoErasureStore } from '../../adapters/dynamo/erasure-store.js';
import { provide } from '../container.js';

export const erasureStore = provide('erasure', (c) => new DynamoErasureStore(c.dynamo().db, c.dynamo().tableName));
