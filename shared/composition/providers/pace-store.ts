import { DynamoPaceStore } from '../../adapters/dynamo/pace-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** The broadcast pace clocks: one conditional UpdateItem a move. */
export const paceStore = provide('pace', (c) => new DynamoPaceStore(tableOf(c).db, tableOf(c).tableName));
