import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig, type Config } from './config.js';
import type { ApiKeyStore, ClientStore, Clock, Ids } from './ports.js';
import { createDocumentClient, RequestCounter } from './adapters/dynamo/document-client.js';
import { DynamoIds } from './adapters/dynamo/ids.js';
import { DynamoClientStore } from './adapters/dynamo/client-store.js';
import { DynamoApiKeyStore } from './adapters/dynamo/api-key-store.js';
import { DynamoContactStore } from './adapters/dynamo/contact-store.js';
import { pingTable } from './adapters/dynamo/health-probe.js';
import { Authenticator } from './domain/auth/authenticate.js';
import type { ContactStore } from './domain/contacts/contact-store.js';
import { DynamoSettingsStore } from './adapters/dynamo/settings-store.js';
import { DynamoTemplateStore } from './adapters/dynamo/template-store.js';
import { DynamoWorkflowCustomizationStore } from './adapters/dynamo/workflow-customization-store.js';
import type { SettingsStore } from './domain/settings/settings-store.js';
import type { TemplateStore } from './domain/templates/template-store.js';
import type { WorkflowCustomizationStore } from './domain/workflows/customization-store.js';

/** Everything a handler needs, built once per cold start. */
export interface Deps {
  config: Config;
  clock: Clock;
  ids: Ids;
  clients: ClientStore;
  apiKeys: ApiKeyStore;
  contacts: ContactStore;
  settings: SettingsStore;
  templates: TemplateStore;
  customizations: WorkflowCustomizationStore;
  authenticator: Authenticator;
  /** DynamoDB requests sent by this container (benchmarks, request budgets). */
  requestCounter: RequestCounter;
  pingStore(): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date() };

export function buildDeps(config: Config = loadConfig(), overrides: { db?: DynamoDBDocumentClient; clock?: Clock } = {}): Deps {
  const requestCounter = new RequestCounter();
  const db =
    overrides.db ??
    createDocumentClient({ region: config.AWS_REGION, endpoint: config.AWS_ENDPOINT_URL_DYNAMODB, counter: requestCounter });
  const table = config.TABLE_NAME;
  const clock = overrides.clock ?? systemClock;
  const clients = new DynamoClientStore(db, table);
  const apiKeys = new DynamoApiKeyStore(db, table);
  return {
    config,
    clock,
    ids: new DynamoIds(db, table),
    clients,
    apiKeys,
    contacts: new DynamoContactStore(db, table),
    settings: new DynamoSettingsStore(db, table),
    templates: new DynamoTemplateStore(db, table),
    customizations: new DynamoWorkflowCustomizationStore(db, table),
    authenticator: new Authenticator(
      { clock, clients, apiKeys },
      {
        hs256Secret: config.JWT_HS256_SECRET,
        jwksUrl: config.JWT_JWKS_URL,
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
        clientIdClaim: config.JWT_CLIENT_ID_CLAIM,
      },
      config.AUTH_CACHE_TTL_SECONDS * 1000,
    ),
    requestCounter,
    pingStore: () => pingTable(db, table),
  };
}

let deps: Deps | undefined;

/** The container's dependencies; the local runtime shares one set across every route, like a warm Lambda. */
export function getDeps(): Deps {
  deps ??= buildDeps();
  return deps;
}

/** Tests and the local runtime replace the container's dependencies (e.g. after changing the environment). */
export function setDeps(next: Deps | undefined): void {
  deps = next;
}
