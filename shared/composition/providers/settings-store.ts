import { DynamoSettingsStore } from '../../adapters/dynamo/settings-store.js';
import { provide } from '../container.js';

export const settingsStore = provide('settings', (c) => new DynamoSettingsStore(c.dynamo().db, c.dynamo().tableName));
