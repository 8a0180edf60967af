import { getContainer, type Container, type DepsOf } from '../container.js';
import { apiKeyStore } from './api-key-store.js';
import { clientStore } from './client-store.js';
import { clock } from './clock.js';
import { ids } from './ids.js';
import { settingsStore } from './settings-store.js';
import { userStore } from './user-store.js';

/** What client administration (admin CLI, demo client, test fixtures, benchmarks) uses: clients, keys, users, settings, ids, time. */
export const clientAdminProviders = [clientStore, apiKeyStore, userStore, settingsStore, ids, clock] as const;

export type ClientAdminDeps = DepsOf<typeof clientAdminProviders>;

export const clientAdminDeps = (container: Container = getContainer()): ClientAdminDeps =>
  container.resolve(clientAdminProviders);
