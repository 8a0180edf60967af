import type { Ports } from '../../composition/ports.js';
import { memoryClientAdapters } from './client-stores.js';
import { MemoryContactStore } from './contact-store.js';
import { MemoryWorkflowCustomizationStore } from './customization-store.js';
import { MemorySettingsStore } from './settings-store.js';
import { MemoryTemplateStore } from './template-store.js';
import { MemoryWorkflowData } from './workflow-data.js';

/**
 * Every store port in memory, wired like one table (settings read the client profile, templates and
 * customizations share their data): `createContainer({ overrides: memoryStores() })` runs any function or domain
 * orchestration without AWS, in milliseconds.
 */
export function memoryStores() {
  const { clients, apiKeys, ids, clock } = memoryClientAdapters();
  const workflowData = new MemoryWorkflowData();
  return {
    clock,
    ids,
    clients,
    apiKeys,
    contacts: new MemoryContactStore(),
    settings: new MemorySettingsStore(clients),
    templates: new MemoryTemplateStore(workflowData),
    customizations: new MemoryWorkflowCustomizationStore(workflowData),
    storeProbe: { ping: async () => undefined },
  } satisfies Partial<Ports>;
}

export type MemoryStores = ReturnType<typeof memoryStores>;
