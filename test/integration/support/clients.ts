import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createContainer } from '../../../shared/composition/container.js';
import { clientAdminDeps, type ClientAdminDeps } from '../../../shared/composition/providers/client-admin.js';
import { loadConfig } from '../../../shared/config.js';
import { createClient, type CreatedClient } from '../../../shared/domain/clients/create-client.js';
import { disableClientKey } from '../../../shared/domain/clients/disable-client-key.js';
import { suspendClient } from '../../../shared/domain/clients/suspend-client.js';
import type { PLAN_TIERS } from '../../../shared/domain/plans/catalog.js';
import { MAX_REQUESTS_PER_SECOND, setClientRateLimits } from '../../../shared/domain/rate-limits/set-rate-limits.js';
import type { Container } from '../../../shared/composition/container.js';
import { verifyLocalDomain } from '../../../local/local-domains.js';

/**
 * Fixtures written straight into the shared runtime's DynamoDB Local (as the admin CLI does). Every test makes its
 * own clients, so tests never share data and can run in parallel.
 *
 * The server caches authentication results per container for AUTH_CACHE_TTL_SECONDS (≤ 60 s, as on AWS):
 * suspend a client or disable its key before the key's first request, or expect the old answer for that long.
 */
let container: Container | undefined;
let deps: ClientAdminDeps | undefined;

function storeContainer(): Container {
  container ??= createContainer({
    config: loadConfig({
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
      // The runtime's DNS and SES stand-ins (npm start sets the same), where test clients' domains are verified.
      SENDER_IDENTITIES: 'local',
      DNS_RESOLVER: 'local',
    }),
  });
  return container;
}

function storeDeps(): ClientAdminDeps {
  deps ??= clientAdminDeps(storeContainer());
  return deps;
}

export type PlanTier = (typeof PLAN_TIERS)[number];

export interface TestClientOptions {
  /**
   * Keep the plan's request rate limits. By default a test client gets the operator's highest override
   * (MAX_REQUESTS_PER_SECOND, as `npm run admin -- set-rate-limit` sets it): the suites test other behaviour, run
   * in parallel and poll (`eventually`), and a free plan's 10 requests a second would answer them 429.
   * test/integration/rate-limits.test.ts tests the limits themselves with this set.
   */
  planRateLimits?: boolean;
  /**
   * Leave the client in the sandbox: no verified domain, so it sends From the onboarding sender to its own dashboard
   * users and SES's simulator only. By default a test client has its domain `t-<tag>.test.example` verified (through
   * the local DNS and SES registry, as a developer would) and sends From no-reply@ it to anyone.
   */
  sandbox?: boolean;
}

/** What createTestClient answers: the client, and its verified domain unless it is in the sandbox. */
export interface TestClient extends CreatedClient {
  domain?: string;
  /** The owner's address (its dashboard user's). */
  owner_email: string;
}

/**
 * A fresh client with an enabled API key; `api_key` is the plain key for `Authorization: Bearer`.
 * Without `plan` the domain's default plan (free) applies.
 */
export async function createTestClient(plan?: PlanTier, options: TestClientOptions = {}): Promise<TestClient> {
  const tag = randomUUID().slice(0, 8);
  const ownerEmail = `client-${tag}@test.example`;
  const created = await createClient(storeDeps(), {
    email: ownerEmail,
    name: `Test client ${tag}`,
    plan,
  });
  const domain = options.sandbox ? undefined : `t-${tag}.test.example`;
  await Promise.all([
    options.planRateLimits
      ? undefined
      : setClientRateLimits(storeDeps(), created.id, {
          api_requests_per_second: MAX_REQUESTS_PER_SECOND,
          event_requests_per_second: MAX_REQUESTS_PER_SECOND,
        }),
    domain ? verifyLocalDomain(storeContainer(), created.id, domain) : undefined,
  ]);
  return {
    id: created.id,
    client_id: created.client_id,
    api_key: created.api_key,
    owner_user_id: created.owner_user_id,
    owner_email: ownerEmail,
    ...(domain ? { domain } : {}),
  };
}

/**
 * Verifies `domain` for the client through the runtime's local DNS and SES registry (claim, publish, check), as
 * createTestClient does unless asked for the sandbox.
 */
export async function verifyTestDomain(clientId: number, domain: string): Promise<void> {
  await verifyLocalDomain(storeContainer(), clientId, domain);
}

export async function suspendTestClient(id: number): Promise<void> {
  await suspendClient(storeDeps(), id);
}

export async function disableTestKey(id: number): Promise<void> {
  await disableClientKey(storeDeps(), id);
}
