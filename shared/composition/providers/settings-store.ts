import { DynamoSettingsStore } from '../../adapters/dynamo/settings-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const settingsStore = provide('settings', (c) => new DynamoSettingsStore(tableOf(c).db, tableOf(c).tableName));
