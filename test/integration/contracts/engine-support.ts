import { contactRecord } from '../../unit/support/contact-fixtures.js';
import { randomUUID } from 'node:crypto';
import { inject, it } from 'vitest';
import { memoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { apiKeyStore } from '../../../shared/composition/providers/api-key-store.js';
import { clientStore } from '../../../shared/composition/providers/client-store.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { customizationStore } from '../../../shared/composition/providers/customization-store.js';
import { deliveryStore } from '../../../shared/composition/providers/delivery-store.js';
import { eventStore } from '../../../shared/composition/providers/event-store.js';
import { executionStore } from '../../../shared/composition/providers/execution-store.js';
import { processingStore } from '../../../shared/composition/providers/processing-store.js';
import { sentEmailStore } from '../../../shared/composition/providers/sent-email-store.js';
import { settingsStore } from '../../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../../shared/composition/providers/template-store.js';
import { trackingStore } from '../../../shared/composition/providers/tracking-store.js';
import { loadConfig } from '../../../shared/config.js';
import type { ClientRecord } from '../../../shared/domain/clients/client-store.js';
import type { ContactRecord } from '../../../shared/domain/contacts/contact-store.js';
import type { EventRecord } from '../../../shared/domain/events/event-record.js';
import type { Reservation } from '../../../shared/domain/executions/delivery-store.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import { SENT_STATUS } from '../../../shared/domain/sent-emails/sent-email-record.js';
import { AT } from './support.js';

/**
 * The engine's store ports (and the stores they read across aggregates) for the contract suites: the memory
 * adapters of one `memoryStores()` set, and the DynamoDB adapters on the integration run's DynamoDB Local.
 */
export type EnginePorts = Pick<
  Ports,
  | 'clients'
  | 'apiKeys'
  | 'contacts'
  | 'settings'
  | 'templates'
  | 'customizations'
  | 'events'
  | 'processing'
  | 'executions'
  | 'delivery'
  | 'sentEmails'
  | 'tracking'
>;

let dynamo: Container | undefined;

function dynamoStores(): EnginePorts {
  dynamo ??= createContainer({
    config: loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
    }),
  });
  return dynamo.resolve([
    clientStore,
    apiKeyStore,
    contactStore,
    settingsStore,
    templateStore,
    customizationStore,
    eventStore,
    processingStore,
    executionStore,
    deliveryStore,
    sentEmailStore,
    trackingStore,
  ]);
}

export const ENGINE_ADAPTERS: [string, () => EnginePorts][] = [
  ['memory', () => memoryStores()],
  ['dynamodb', dynamoStores],
];

/**
 * Events are created far in the future: the local runtime's outbox sweeper (every queued event created more than two
 * minutes ago) never picks up a contract suite's event, and these sort after every real queued event in the index.
 */
export const EVENT_AT = '2090-01-15T10:00:00.000Z';

let nextId = 1;
/** Ids unique within a run (client ids are fresh per test, so these need not be unique across runs). */
export const nextRecordId = (): number => nextId++;

export async function createClient(
  ports: Pick<EnginePorts, 'clients'>,
  id: number,
  fields: Partial<ClientRecord> = {},
): Promise<ClientRecord> {
  const hash = randomUUID().replaceAll('-', '').repeat(2);
  const client: ClientRecord = {
    id,
    client_id: randomUUID(),
    name: 'Acme',
    email: `ops-${id}@acme.test`,
    plan: 'free',
    status: 'active',
    api_key_id: 1,
    api_key_hash: hash,
    api_key_masked: 'els_…abcd',
    api_key_enabled: true,
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
  await ports.clients.create(client, {
    key_hash: hash,
    key_id: 1,
    client_id: id,
    enabled: true,
    masked_key: 'els_…abcd',
    created_at: AT,
  });
  return client;
}

export async function createContact(
  ports: Pick<EnginePorts, 'contacts'>,
  clientId: number,
  fields: Partial<ContactRecord> = {},
) {
  const id = nextRecordId();
  const contact = contactRecord({
    id,
    client_id: clientId,
    email: `c${id}@example.com`,
    client_contact_id: undefined,
    created_at: AT,
    updated_at: AT,
    ...fields,
  });
  await ports.contacts.create(contact);
  return contact;
}

export function eventRecord(clientId: number, fields: Partial<EventRecord> = {}): EventRecord {
  return {
    id: nextRecordId(),
    client_id: clientId,
    type: 'signup',
    email: 'ann@example.com',
    auto_create_contact: false,
    ts: EVENT_AT,
    payload: { type: 'signup', email: 'ann@example.com' },
    mode: 'async',
    queue_status: 'queued',
    retry_count: 0,
    created_at: EVENT_AT,
    ...fields,
  };
}

export function executionRecord(
  clientId: number,
  contactId: number,
  fields: Partial<ExecutionRecord> = {},
): ExecutionRecord {
  return {
    id: nextRecordId(),
    client_id: clientId,
    workflow_id: 1,
    contact_id: contactId,
    event_id: null,
    status: EXECUTION_STATUS.queued,
    is_test: false,
    attempt: 1,
    template_id: 1,
    priority_score: 90,
    critical: false,
    cap_day: '2026-01-15',
    scheduled_for: AT,
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
}

/** A claim of `execution` at `at` (its sent e-mail id derived from the execution, as the sender does). */
export function reservation(
  execution: ExecutionRecord,
  fields: { at?: string; dayLimit?: number; monthLimit?: number; capLimit?: number | null } = {},
): Reservation {
  const at = fields.at ?? AT;
  const id = `00000000-0000-8000-8000-${execution.id.toString(16).padStart(12, '0')}`;
  const dayLimit = fields.dayLimit ?? 100;
  const monthLimit = fields.monthLimit ?? 1000;
  return {
    execution,
    sentEmail: {
      id,
      client_id: execution.client_id,
      contact_id: execution.contact_id,
      execution_id: execution.id,
      workflow_id: execution.workflow_id,
      email_template_id: execution.template_id,
      email_template_name: 'Welcome',
      from_email: '"Acme" <hello@acme.test>',
      to_email: 'ann@example.com',
      subject: 'Welcome, Ann',
      html_body: '<p>Hi</p>',
      text_body: 'Hi',
      browser_url: `https://els.test/v/${id}`,
      status: SENT_STATUS.queued,
      status_updated_at: at,
      // As the sender stamps it (execute-workflow.ts): the day counters' shards of the reservation's limits.
      created_at: at,
    },
    log: { id: `log-${execution.id}`, created_at: at, status: SENT_STATUS.queued },
    unsubscribeUrl: 'https://els.test/u/token',
    quota: { day: at.slice(0, 10), dayLimit, month: at.slice(0, 7), monthLimit },
    at,
    ...(fields.capLimit === null ? {} : { contactCap: { limit: fields.capLimit ?? 3 } }),
  };
}

/** Stores `executions` the way processing does (an event committed with them), the contact's figures untouched. */
export async function seedExecutions(
  ports: Pick<EnginePorts, 'events' | 'processing'>,
  clientId: number,
  executions: ExecutionRecord[],
) {
  const event = eventRecord(clientId);
  await ports.events.insert(event);
  const outcome = await ports.processing.commit({
    event: { ...event, queue_status: 'processed', execution_ids: executions.map((e) => e.id), processed_at: AT },
    executions,
  });
  if (outcome !== 'committed') throw new Error(`seeding executions: ${outcome}`);
  return executions;
}
