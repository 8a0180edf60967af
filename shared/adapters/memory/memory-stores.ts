import { memoryClientAdapters } from './client-stores.js';
import { MemoryContactActivityStore } from './contact-activity-store.js';
import { MemoryContactStore } from './contact-store.js';
import { MemoryWorkflowCustomizationStore } from './customization-store.js';
import { MemoryDeliveryStore } from './delivery-store.js';
import { MemoryDomainStore } from './domain-store.js';
import { MemoryEngineData } from './engine-data.js';
import { MemoryEventStore } from './event-store.js';
import { MemoryIpRateCounter } from './ip-rate-counter.js';
import { MemoryJourneyStore } from './journey-store.js';
import { MemoryMembershipStore } from './membership-store.js';
import { MemorySegmentStore } from './segment-store.js';
import { MemoryExecutionStore } from './execution-store.js';
import { MemoryProcessingStore } from './processing-store.js';
import { MemoryRunStore } from './run-store.js';
import { MemorySentEmailStore } from './sent-email-store.js';
import { MemorySettingsStore } from './settings-store.js';
import { MemoryTemplateStore } from './template-store.js';
import { MemoryTrackingStore } from './tracking-store.js';
import { MemoryTopicStore } from './topic-store.js';
import { MemoryUnsubscribeStore } from './unsubscribe-store.js';
import { MemoryWebhookStore } from './webhook-store.js';
import { MemoryWorkflowData } from './workflow-data.js';

/**
 * Every store port in memory, wired like one table (settings read the client profile, templates and
 * customizations share their data): `createContainer({ overrides: memoryStores() })` runs any function or domain
 * orchestration without AWS, in milliseconds. Each store is named by the port it stands in for; composition checks
 * that against its port list (test/unit/composition/memory-stores.test.ts), so this adapter knows nothing of the wiring.
 */
export function memoryStores() {
  const { clients, apiKeys, users, sessions, authReads, ids, clock, rateCounter } = memoryClientAdapters();
  const workflowData = new MemoryWorkflowData();
  const topics = new MemoryTopicStore();
  const contacts = new MemoryContactStore(topics);
  const settings = new MemorySettingsStore(clients);
  // A publish checks that its trigger's segment still exists, in the segment store created below.
  const segmentHolder: { store?: MemorySegmentStore } = {};
  const journeys = new MemoryJourneyStore(workflowData, settings, (clientId, segmentId) =>
    segmentHolder.store ? segmentHolder.store.has(clientId, segmentId) : false,
  );
  // The engine's stores span aggregates: they see the contacts, settings, profiles and workflow data above.
  const aggregates = { contacts, clients, settings, workflowData, topics, users, journeys };
  const engineData = new MemoryEngineData();
  const segments = new MemorySegmentStore(aggregates, engineData);
  segmentHolder.store = segments;
  return {
    clock,
    ids,
    rateCounter,
    ipRateCounter: new MemoryIpRateCounter(),
    clients,
    apiKeys,
    users,
    sessions,
    authReads,
    contacts,
    contactWrites: contacts,
    settings,
    templates: new MemoryTemplateStore(workflowData, journeys),
    customizations: new MemoryWorkflowCustomizationStore(workflowData),
    topics,
    domains: new MemoryDomainStore(settings.senders),
    journeys,
    events: new MemoryEventStore(engineData),
    processing: new MemoryProcessingStore(aggregates, engineData),
    membership: new MemoryMembershipStore(aggregates, engineData),
    segments,
    runs: new MemoryRunStore(aggregates, engineData),
    executions: new MemoryExecutionStore(aggregates, engineData),
    delivery: new MemoryDeliveryStore(aggregates, engineData),
    sentEmails: new MemorySentEmailStore(engineData),
    tracking: new MemoryTrackingStore(aggregates, engineData),
    unsubscribe: new MemoryUnsubscribeStore(aggregates, engineData),
    contactActivity: new MemoryContactActivityStore(engineData, aggregates),
    stats: engineData.stats,
    webhooks: new MemoryWebhookStore(),
    storeProbe: { ping: async () => undefined },
  };
}

export type MemoryStores = ReturnType<typeof memoryStores>;
