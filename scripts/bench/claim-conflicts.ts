/**
 * `npx tsx scripts/bench/claim-conflicts.ts` — the hot items of one client's sends: many executors
 * claiming sends of ONE client at once, on DynamoDB Local in memory (free port), through the real adapters and the
 * real executor (executeWorkflow; an instant mailer, queue and scheduler that go nowhere). Counts every claim
 * transaction attempt and each TransactionConflict cancellation by the item that conflicted (observeTransactions),
 * with the quota on one item (limits below the sharding threshold) and on its 8 shards (limits above it), and the
 * requests the per-container configuration cache saved. Prints; writes nothing.
 *
 * DynamoDB Local runs transactions one at a time and never cancels one for a conflict, so the bench brings DynamoDB's
 * conflicts back (transaction-conflicts.ts): an item is held while its transaction is in flight. SES answers after
 * CLAIM_SES_MS (100), so the claim's share of a send's time is near AWS's.
 *
 * Env: CLAIM_SENDS (per run, default 1000), CLAIM_CONCURRENCY (comma list, default "16,32,64"), CLAIM_CONTACTS
 * (contacts the sends go to, default = CLAIM_SENDS: one send each; fewer makes the contacts' day-cap items hot too),
 * CLAIM_SES_MS.
 */
import { availableParallelism, cpus } from 'node:os';
import { startDynamoLocal } from '../../local/dynamodb.js';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';
import { observeTransactions, type TransactionAttempt } from '../../shared/adapters/dynamo/transactions.js';
import { emulateTransactionConflicts } from './transaction-conflicts.js';
import { createContainer, type Container } from '../../shared/composition/container.js';
import { clientAdminDeps } from '../../shared/composition/providers/client-admin.js';
import { configCacheOf } from '../../shared/composition/providers/config-cache.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { deliveryStore } from '../../shared/composition/providers/delivery-store.js';
import { eventStore } from '../../shared/composition/providers/event-store.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { processingStore } from '../../shared/composition/providers/processing-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { trackingStore } from '../../shared/composition/providers/tracking-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { senderIdentities } from '../../shared/composition/providers/sender-identities.js';
import { serviceSendersOf } from '../../shared/domain/domains/service-senders.js';
import { verifyLocalDomain } from '../../local/local-domains.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { loadConfig } from '../../shared/config.js';
import { createClient } from '../../shared/domain/clients/create-client.js';
import { createContactRecord } from '../../shared/domain/contacts/create-contact.js';
import { ContactBody } from '../../shared/domain/contacts/schemas.js';
import { eventProcessingDeps } from '../../shared/domain/events/create-event.js';
import { ingestEvent } from '../../shared/domain/events/ingest-event.js';
import { processEvent } from '../../shared/domain/events/process-event.js';
import { EventBody } from '../../shared/domain/events/schemas.js';
import { executeWorkflow, type ExecuteDeps } from '../../shared/domain/executions/execute-workflow.js';
import { SettingsPatch } from '../../shared/domain/settings/schemas.js';
import { updateSettings } from '../../shared/domain/settings/update-settings.js';
import type { Mailer, Queue, Scheduler } from '../../shared/platform.js';

process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
process.env['POWERTOOLS_LOG_LEVEL'] ??= 'SILENT';
const SENDS = Number(process.env['CLAIM_SENDS'] ?? 1000);
const CONCURRENCY = (process.env['CLAIM_CONCURRENCY'] ?? '16,32,64').split(',').map(Number);
const CONTACTS = Number(process.env['CLAIM_CONTACTS'] ?? SENDS);
const TABLE = 'claim-bench';
const IN_FLIGHT_SETUP = 16;
/** SES's answer time: 100 ms keeps the claim's share of a send's time near what it is on AWS (≈ 20 of ≈ 150 ms). */
const SES_MS = Number(process.env['CLAIM_SES_MS'] ?? 100);

/** Quota limits on each side of the sharding threshold (quota-shards.ts: 10 000 a day or 300 000 a month). */
const QUOTAS = {
  'quota on 1 item': { custom_email_quota_per_day: 9_000, custom_email_quota_per_month: 200_000 },
  'quota on 8 shards': { custom_email_quota_per_day: 200_000, custom_email_quota_per_month: 3_000_000 },
} as const;

const noQueue: Queue = { send: async () => undefined, sendBatch: async () => undefined };
const noScheduler: Scheduler = { scheduleAt: async () => undefined, cancel: async () => undefined };
let messageIds = 0;
const instantMailer: Mailer = {
  send: async () => {
    if (SES_MS > 0) await new Promise((resolve) => setTimeout(resolve, SES_MS));
    return { kind: 'sent', providerMessageId: `bench-${++messageIds}` };
  },
};

/** What a claim's item is, from its key (keys.ts): the execution, the quota counter, the contact's day cap, … */
const kindOf = (key: { pk: string }) => key.pk.split('#')[0]!.toLowerCase();

interface Tally {
  claims: number;
  claimAttempts: number;
  conflictedAttempts: number;
  conflictsByItem: Record<string, number>;
  otherTransactions: number;
  otherConflicts: number;
}

function tally(): { stop: () => Tally } {
  const t: Tally = {
    claims: 0,
    claimAttempts: 0,
    conflictedAttempts: 0,
    conflictsByItem: {},
    otherTransactions: 0,
    otherConflicts: 0,
  };
  const stop = observeTransactions((attempt: TransactionAttempt) => {
    // The claim is the transaction that moves the execution (its 1st item) and puts the sent-email record (delivery-store.ts).
    const isClaim = attempt.keys[0]?.pk.startsWith('EXEC#') === true && attempt.keys.some((k) => k.sk === 'SENT');
    if (!isClaim) {
      t.otherTransactions += 1;
      if (attempt.outcome === 'conflict') t.otherConflicts += 1;
      return;
    }
    t.claimAttempts += 1;
    if (attempt.outcome !== 'conflict') t.claims += 1;
    else {
      t.conflictedAttempts += 1;
      for (const i of attempt.conflicted) {
        const kind = kindOf(attempt.keys[i]!);
        t.conflictsByItem[kind] = (t.conflictsByItem[kind] ?? 0) + 1;
      }
    }
  });
  return {
    stop: () => {
      stop();
      return t;
    },
  };
}

async function inWaves<T>(items: readonly T[], inFlight: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

function engineOf(container: Container) {
  const deps = container.resolve([
    eventStore,
    processingStore,
    contactStore,
    ids,
    clock,
    executionStore,
    deliveryStore,
    settingsStore,
    trackingStore,
    userStore,
    senderIdentities,
  ]);
  const full = { ...deps, queue: noQueue, scheduler: noScheduler, mailer: instantMailer };
  const execute: ExecuteDeps = {
    ...full,
    sender: {
      linkSecret: 'x'.repeat(32),
      publicBaseUrl: 'https://bench.test',
      ...serviceSendersOf(deps.config),
    },
  };
  return { deps: full, execute };
}

/** A client with `quota`, CONTACTS contacts, and SENDS queued executions (one `trial_ending` event each). */
async function prepare(
  container: Container,
  quota: Record<string, number>,
): Promise<{ clientId: number; executionIds: number[] }> {
  const { deps } = engineOf(container);
  const created = await createClient(clientAdminDeps(container), {
    email: `bench-${Date.now()}@example.com`,
    name: 'Claim bench',
    plan: 'scale',
  });
  await updateSettings(deps, created.id, SettingsPatch.parse(quota));
  // A verified domain, so the client sends to its contacts (without one it is in the sandbox).
  await verifyLocalDomain(container, created.id, `claims-${created.id}.bench.example`);
  const emails = Array.from({ length: CONTACTS }, (_, i) => `c${i}-${created.id}@example.com`);
  await inWaves(emails, IN_FLIGHT_SETUP, (email) =>
    createContactRecord(deps, created.id, ContactBody.parse({ email }), 0),
  );
  const executionIds: number[] = [];
  await inWaves(
    Array.from({ length: SENDS }, (_, i) => emails[i % CONTACTS]!),
    IN_FLIGHT_SETUP,
    async (email) => {
      const body = { type: 'trial_ending', email };
      const { event } = await ingestEvent(deps, created.id, EventBody.parse(body), body, 'async');
      const processed = await processEvent(eventProcessingDeps(deps), created.id, event.id);
      executionIds.push(...(processed?.execution_ids ?? []));
    },
  );
  return { clientId: created.id, executionIds };
}

async function main(): Promise<void> {
  const dynamo = await startDynamoLocal({ port: 0, tableName: TABLE });
  const containerWith = (ttlSeconds: number) => {
    const counter = new RequestCounter();
    const db = createDocumentClient({ region: 'us-east-1', endpoint: dynamo.endpoint, counter });
    const conflicts = emulateTransactionConflicts(db);
    const container = createContainer({
      db,
      requestCounter: counter,
      config: loadConfig({
        ...process.env,
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        TABLE_NAME: TABLE,
        AWS_REGION: 'us-east-1',
        LINK_SECRET: 'x'.repeat(32),
        CONFIG_CACHE_TTL_SECONDS: String(ttlSeconds),
        // The bench client's domain is verified through the local DNS and SES stand-ins in the same table.
        SENDER_IDENTITIES: 'local',
        DNS_RESOLVER: 'local',
      }),
    });
    return Object.assign(container, { conflicts });
  };
  console.log(
    `Claim conflicts: ${SENDS} sends of one client to ${CONTACTS} contacts, executors in flight ${CONCURRENCY.join(', ')}`,
  );
  console.log(
    `Machine: ${cpus()[0]?.model ?? 'cpu'} × ${availableParallelism()}, Node ${process.version}, DynamoDB Local in memory\n`,
  );
  try {
    const rows: string[] = [];
    // Warm-up (JVM, Node): not reported.
    {
      const container = containerWith(30);
      const { clientId, executionIds } = await prepare(container, QUOTAS['quota on 8 shards']);
      await inWaves(executionIds, 16, (id) =>
        executeWorkflow(engineOf(container).execute, clientId, id).catch(() => undefined),
      );
    }
    for (const [label, quota] of Object.entries(QUOTAS)) {
      for (const inFlight of CONCURRENCY) {
        // The cache's saving is the same at any concurrency: measured once without it.
        for (const ttl of inFlight === CONCURRENCY[0] ? [30, 0] : [30]) {
          const container = containerWith(ttl);
          const { clientId, executionIds } = await prepare(container, quota);
          const { execute } = engineOf(container);
          container.requestCounter.reset();
          const cache = configCacheOf(container);
          cache.hits = 0;
          cache.misses = 0;
          const watch = tally();
          const started = performance.now();
          const outcomes: Record<string, number> = {};
          const heldBefore = container.conflicts.heldMs();
          const transactionsBefore = container.conflicts.transactions();
          let sendMs = 0;
          await inWaves(executionIds, inFlight, async (id) => {
            const t0 = performance.now();
            // A claim still in conflict after sendTransaction's 6 attempts is thrown: SQS would deliver it again.
            const outcome = await executeWorkflow(execute, clientId, id).catch((error: unknown) => ({
              kind: `thrown ${(error as Error).name}`,
            }));
            sendMs += performance.now() - t0;
            const k = 'status' in outcome ? `finished ${outcome.status}` : outcome.kind;
            outcomes[k] = (outcomes[k] ?? 0) + 1;
          });
          const ms = performance.now() - started;
          const t = watch.stop();
          const requests = container.requestCounter.snapshot();
          const retryPct = t.claims ? (100 * t.conflictedAttempts) / t.claims : 0;
          const byItem =
            Object.entries(t.conflictsByItem)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ') || '—';
          const transactionMs =
            (container.conflicts.heldMs() - heldBefore) /
            Math.max(1, container.conflicts.transactions() - transactionsBefore);
          rows.push(
            `| ${label} | ${inFlight} | ${ttl ? `${ttl} s` : 'off'} | ${t.claims} | ${t.conflictedAttempts} | **${retryPct.toFixed(2)} %** | ${byItem} | ` +
              `${((SENDS / ms) * 1000).toFixed(0)} | ${transactionMs.toFixed(0)} / ${(sendMs / SENDS).toFixed(0)} | ` +
              `${(container.requestCounter.total / SENDS).toFixed(2)} | ${JSON.stringify(requests)} | ` +
              `${cache.hits}/${cache.hits + cache.misses} | ${JSON.stringify(outcomes)} |`,
          );
          console.log(rows.at(-1));
        }
      }
    }
    console.log(
      '\n| quota | executors in flight | config cache | claims | conflicted claim attempts (retried) | retries per claim | conflicts by item | sends/s | ms a transaction / a send | DynamoDB requests per send (sent) | by command | config keys from the cache | outcomes |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
  } finally {
    await dynamo.stop();
  }
}

await main();
