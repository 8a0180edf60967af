/**
 * Admin CLI — the operations a dashboard would offer, outside the client API.
 *   npm run admin -- <command> [options]
 * Prints JSON lines on stdout (scriptable); messages go to stderr. Exit 0 ok, 1 failure, 2 bad usage.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createContainer } from '../shared/composition/container.js';
import { clientAdminDeps, type ClientAdminDeps as Deps } from '../shared/composition/providers/client-admin.js';
import { loadConfig } from '../shared/config.js';
import { createClient, CreateClientInput } from '../shared/domain/clients/create-client.js';
import type { SenderIdentities } from '../shared/domain/domains/sender-identities.js';
import type { SettingsStore } from '../shared/domain/settings/settings-store.js';
import { disableClientKey } from '../shared/domain/clients/disable-client-key.js';
import { listClients } from '../shared/domain/clients/list-clients.js';
import { suspendClient } from '../shared/domain/clients/suspend-client.js';
import { PLAN_TIERS } from '../shared/domain/plans/catalog.js';
import { rateLimitsOf } from '../shared/domain/rate-limits/rate-policy.js';
import { MAX_REQUESTS_PER_SECOND, setClientRateLimits } from '../shared/domain/rate-limits/set-rate-limits.js';
import { trackingStore } from '../shared/composition/providers/tracking-store.js';
import { tableOf } from '../shared/composition/providers/table.js';
import { foldLegacyStatsShards } from '../shared/adapters/dynamo/stats-fold.js';
import { resumeSending } from '../shared/domain/tracking/deliverability-guard.js';
import { clock } from '../shared/composition/providers/clock.js';
import { senderIdentities } from '../shared/composition/providers/sender-identities.js';
import { eventStore } from '../shared/composition/providers/event-store.js';
import { executionStore } from '../shared/composition/providers/execution-store.js';
import { listStuck } from '../shared/domain/operations/list-stuck.js';
import { QUEUE_NAMES, type QueueName, type RedriveOutcome } from '../shared/platform.js';
import { ensureTable } from '../local/dynamodb.js';
import { LOCAL_EXECUTION_LEASE_SECONDS } from '../local/execution-lease.js';
import { localRuntime, localStoreTarget, NoRuntimeOnPortError } from '../local/store-target.js';
import { queueUrlVariable, redriveLocally, redriveOnAws } from './admin/redrive.js';

const HELP = `Usage: npm run admin -- <command> [options]

Commands
  create-client --email E --name N [--plan TIER]
                 Creates a client, its first API key and its owner: the dashboard user E (who signs
                 in by e-mail link; E must not have an account yet). Prints
                 {"id","client_id","api_key","owner_user_id"}. The key is shown only here.
                 With --aws it also makes the client's SES tenant (locally: at its first domain's proof).
                 TIER: ${PLAN_TIERS.join(', ')} (default free).
  disable-key --client ID       Disables the client's current API key (ID: numeric id or client_id UUID).
  suspend-client --client ID    Suspends the client (its requests are refused).
  resume-sending --client ID    Resumes a client whose sending the deliverability guard paused (bounce or
                                complaint rate above SES's review thresholds); its waiting executions send at
                                their next check (≤ 1 h) and the rates are judged again from now on.
  list-clients                  One JSON line per client (masked keys only).
  set-rate-limit --client ID [--api N] [--events N] [--reset]
                 Overrides the plan's request rate limits of one client (requests a second, 1–1000): --api for
                 every authenticated route but POST /client/events, --events for that one; --reset goes back to
                 the plan's. Prints the client with its effective "rate_limits". Every container applies it
                 within the authentication cache's 60 s.
  stuck [--lease-seconds S] [--queued-seconds S] [--limit N]
                 What crash recovery has not recovered yet, oldest first, one JSON line each:
                 {"kind":"execution",...} an execution at 2 (executing) longer than the lease: client_id,
                   execution_id, status, reason, outcome_unknown, retry_pending, updated_at, past_lease_seconds;
                 {"kind":"event",...} an event still queued longer than the outbox sweeper waits: client_id,
                   event_id, created_at, age_seconds.
                 A count goes to stderr. S defaults: EXECUTION_LEASE_SECONDS (600; against a local runtime
                 ${LOCAL_EXECUTION_LEASE_SECONDS}, as npm start's default), OUTBOX_SWEEP_AFTER_SECONDS (120). At most N of each (default 1000).
  redrive --queue NAME [--queue-url URL]
                 Moves the queue's dead letters back to it. NAME: ${QUEUE_NAMES.join(', ')}.
                 Local: the in-process queue of the npm start on API port --port N, else $PORT, else 3000;
                   prints {"queue","moved"}.
                 AWS (--aws): SQS StartMessageMoveTask from the queue's DLQ (read from its RedrivePolicy) to the
                   queue, whose URL is --queue-url or $<NAME>_QUEUE_URL (e.g. WORKFLOW_QUEUE_URL); prints
                   {"queue","task_handle","source_arn","destination_arn"}; the move goes on in the background.
  ensure-sending [--client ID]  (AWS only: --aws)
                 Gives every client (or one) its SES tenant and its own configuration set, associated with the
                 tenant, and records both on the client's sending state, so its mail names them: for clients made
                 before tenants, or before each client had a set of its own. Safe to run again (what exists is kept).
                 One JSON line per client, in id order: {"client_id","tenant","configuration_set","previous":
                 {"tenant","configuration_set"} or null,"changed"}. SES answers such calls about once a second, so
                 allow a few seconds a client.
  fold-stats [--client ID]
                 Folds the day counters' rows that facts once spread over stats shards 1..15 (clients whose limits
                 sharded them) into shard 0, the one partition GET /client/stats reads now. Run once after deploying
                 the counters projection; safe to run again (each row moves once). One JSON line per client:
                 {"client_id","folded","already_folded"}. Without --client: every client.
  help                          This text.

Target
  Local (default): the DynamoDB Local of a running \`npm start\`: AWS_ENDPOINT_URL_DYNAMODB or
    127.0.0.1:$DYNAMODB_PORT when set, else the npm start on API port --port N, else $PORT, else 3000 (found
    whatever ports it was given), else 127.0.0.1:8000; table TABLE_NAME (default email-lifecycle).
  AWS: pass --aws (or ADMIN_TARGET=aws) with TABLE_NAME set and AWS_ENDPOINT_URL_DYNAMODB unset;
    credentials and region come from the default AWS chain (AWS_PROFILE, AWS_REGION, ...).
    redrive needs no table: the queue's URL instead.

Examples
  npm run admin -- create-client --email ops@acme.test --name "Acme" --plan growth
  TABLE_NAME=EmailLifecycle-Table AWS_PROFILE=prod npm run admin -- list-clients --aws
  npm run admin -- set-rate-limit --client 1 --api 200 --events 500
  npm run admin -- stuck
  npm run admin -- redrive --queue workflow --aws --queue-url https://sqs.eu-west-1.amazonaws.com/123456789012/Q
`;

class UsageError extends Error {}

interface Target {
  kind: 'local' | 'aws';
  env: NodeJS.ProcessEnv;
  description: string;
}

/** The rule: AWS only when asked for explicitly AND the table is named AND no endpoint override is set. */
function resolveTarget(env: NodeJS.ProcessEnv, awsFlag: boolean, apiPort: number | undefined): Target {
  const wantsAws = awsFlag || env['ADMIN_TARGET'] === 'aws';
  if (wantsAws) {
    if (!env['TABLE_NAME']) throw new UsageError('--aws needs TABLE_NAME (the deployed table name)');
    if (env['AWS_ENDPOINT_URL_DYNAMODB']) {
      throw new UsageError('--aws conflicts with AWS_ENDPOINT_URL_DYNAMODB; unset it to reach AWS');
    }
    const { AWS_ENDPOINT_URL_DYNAMODB: _drop, ...rest } = env;
    return { kind: 'aws', env: rest, description: `AWS table ${env['TABLE_NAME']}` };
  }
  if (env['ADMIN_TARGET'] && env['ADMIN_TARGET'] !== 'local') {
    throw new UsageError(`ADMIN_TARGET must be "local" or "aws", got "${env['ADMIN_TARGET']}"`);
  }
  const local = localStoreTarget(env, apiPort);
  return {
    kind: 'local',
    env: { ...env, AWS_ENDPOINT_URL_DYNAMODB: local.dynamoEndpoint, TABLE_NAME: local.tableName },
    description: local.description,
  };
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--port must be an integer 1–65535, got "${raw}"`);
  return port;
}

/** An integer option of at least `min`; undefined when not given. */
function integerOption(raw: string | undefined, flag: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min)
    throw new UsageError(`${flag} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

/** A requests-a-second option of set-rate-limit: 1–MAX_REQUESTS_PER_SECOND; undefined when not given. */
function rateOption(raw: string | undefined, flag: string): number | undefined {
  const value = integerOption(raw, flag, 1);
  if (value !== undefined && value > MAX_REQUESTS_PER_SECOND)
    throw new UsageError(`${flag} must be at most ${MAX_REQUESTS_PER_SECOND}, got ${value}`);
  return value;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

/** Numeric id, or the public client_id (UUID) looked up in the client list. */
async function resolveClientId(deps: Deps, raw: string): Promise<number> {
  if (/^\d+$/.test(raw)) {
    const id = Number(raw);
    if (!(await deps.clients.get(id))) throw new Error(`client ${raw} not found`);
    return id;
  }
  const match = (await listClients(deps)).find((c) => c.client_id === raw);
  if (!match) throw new Error(`client ${raw} not found`);
  return match.id;
}

async function summary(deps: Deps, id: number) {
  return (await listClients(deps)).find((c) => c.id === id);
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      plan: { type: 'string' },
      client: { type: 'string' },
      port: { type: 'string' },
      queue: { type: 'string' },
      'queue-url': { type: 'string' },
      'lease-seconds': { type: 'string' },
      'queued-seconds': { type: 'string' },
      limit: { type: 'string' },
      api: { type: 'string' },
      events: { type: 'string' },
      reset: { type: 'boolean', default: false },
      aws: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(HELP);
    if (command === undefined && !values.help) process.exitCode = 2;
    return;
  }
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  const known = [
    'create-client',
    'disable-key',
    'suspend-client',
    'resume-sending',
    'list-clients',
    'set-rate-limit',
    'stuck',
    'redrive',
    'fold-stats',
    'ensure-sending',
  ];
  if (!known.includes(command)) throw new UsageError(`unknown command "${command}"`);
  const apiPort = values.port === undefined ? undefined : parsePort(values.port);
  if (command === 'redrive') return redrive(values, apiPort);

  // Validate the input before touching any store.
  let plan: (typeof PLAN_TIERS)[number] | undefined;
  if (command === 'create-client') {
    required(values.email, '--email');
    required(values.name, '--name');
    if (values.plan !== undefined) {
      plan = PLAN_TIERS.find((t) => t === values.plan);
      if (!plan) throw new UsageError(`--plan must be one of ${PLAN_TIERS.join(', ')}`);
    }
    const checked = CreateClientInput.safeParse({ email: values.email, name: values.name, plan });
    if (!checked.success) {
      const detail = checked.error.issues.map((i) => `--${i.path.map(String).join('.')}: ${i.message}`).join('; ');
      throw new UsageError(`invalid input: ${detail}`);
    }
  }
  if (['disable-key', 'suspend-client', 'resume-sending', 'set-rate-limit'].includes(command))
    required(values.client, '--client');
  const apiRate = rateOption(values.api, '--api');
  const eventsRate = rateOption(values.events, '--events');
  if (command === 'set-rate-limit' && values.reset === (apiRate !== undefined || eventsRate !== undefined)) {
    throw new UsageError('set-rate-limit needs --api and/or --events, or --reset alone');
  }
  const leaseSeconds = integerOption(values['lease-seconds'], '--lease-seconds', 1);
  const queuedSeconds = integerOption(values['queued-seconds'], '--queued-seconds', 0);
  const limit = integerOption(values.limit, '--limit', 1);

  const target = resolveTarget(process.env, values.aws, apiPort);
  if (command === 'ensure-sending' && target.kind !== 'aws') {
    throw new UsageError(
      'ensure-sending makes SES tenants and configuration sets: run it with --aws (locally a client gets its ' +
        "tenant at its first domain's proof)",
    );
  }
  const config = loadConfig(target.env);
  const container = createContainer({ config });
  const deps = clientAdminDeps(container);
  if (target.kind === 'local')
    await prepareLocalTable(config.AWS_ENDPOINT_URL_DYNAMODB!, config.TABLE_NAME, config.AWS_REGION);

  switch (command) {
    case 'create-client': {
      // On AWS the client's SES tenant is made now, with the operator's credentials; locally at its first domain.
      const sending = target.kind === 'aws' ? container.resolve([senderIdentities]) : {};
      const created = await createClient({ ...deps, ...sending }, { email: values.email!, name: values.name!, plan });
      print({
        id: created.id,
        client_id: created.client_id,
        api_key: created.api_key,
        owner_user_id: created.owner_user_id,
      });
      return;
    }
    case 'disable-key': {
      const id = await resolveClientId(deps, values.client!);
      await disableClientKey(deps, id);
      print(await summary(deps, id));
      return;
    }
    case 'suspend-client': {
      const id = await resolveClientId(deps, values.client!);
      await suspendClient(deps, id);
      print(await summary(deps, id));
      return;
    }
    case 'resume-sending': {
      const id = await resolveClientId(deps, values.client!);
      const resumed = await resumeSending(
        { ...deps, tracking: container.resolve([trackingStore]).tracking },
        id,
        deps.clock.now(),
      );
      if (!resumed) process.stderr.write(`client ${id}: sending was not paused; nothing changed\n`);
      print({ ...(await summary(deps, id)), sending_resumed: resumed });
      return;
    }
    case 'list-clients': {
      for (const client of await listClients(deps)) print(client);
      return;
    }
    case 'set-rate-limit': {
      const id = await resolveClientId(deps, values.client!);
      const current = (await deps.clients.get(id))?.rate_limits ?? {};
      const override = values.reset
        ? undefined
        : {
            ...current,
            ...(apiRate !== undefined ? { api_requests_per_second: apiRate } : {}),
            ...(eventsRate !== undefined ? { event_requests_per_second: eventsRate } : {}),
          };
      await setClientRateLimits(deps, id, override);
      const client = await deps.clients.get(id);
      print({
        ...(await summary(deps, id)),
        rate_limits: rateLimitsOf(client!),
        rate_limit_override: client?.rate_limits ?? null,
      });
      return;
    }
    case 'ensure-sending': {
      const ids =
        values.client !== undefined
          ? [await resolveClientId(deps, values.client)]
          : (await listClients(deps)).map((c) => c.id).sort((a, b) => a - b);
      const sending = { ...deps, ...container.resolve([senderIdentities]) };
      for (const id of ids) print(await ensureSendingOf(sending, id));
      return;
    }
    case 'fold-stats': {
      const ids =
        values.client !== undefined
          ? [await resolveClientId(deps, values.client)]
          : (await listClients(deps)).map((c) => c.id);
      const { db, tableName } = tableOf(container);
      for (const id of ids) {
        const folded = await foldLegacyStatsShards(db, tableName, id);
        print({ client_id: id, folded: folded.folded, already_folded: folded.alreadyFolded });
      }
      return;
    }
    case 'stuck': {
      // A local runtime judges its claims by its own lease (60 s unless EXECUTION_LEASE_SECONDS was set for it).
      const defaultLease =
        target.kind === 'local' && !target.env['EXECUTION_LEASE_SECONDS']
          ? LOCAL_EXECUTION_LEASE_SECONDS
          : config.EXECUTION_LEASE_SECONDS;
      const lease = leaseSeconds ?? defaultLease;
      const queued = queuedSeconds ?? config.OUTBOX_SWEEP_AFTER_SECONDS;
      const stores = container.resolve([executionStore, eventStore, clock]);
      const listing = await listStuck(stores, { leaseMs: lease * 1000, queuedMs: queued * 1000, limit });
      for (const execution of listing.executions) print({ kind: 'execution', ...execution });
      for (const event of listing.events) print({ kind: 'event', ...event });
      const more = (kind: keyof typeof listing.more) =>
        listing.more[kind] ? ' (the first ones; there may be more: --limit)' : '';
      process.stderr.write(
        `${listing.executions.length} executions at 2 past their ${lease} s lease${more('executions')}, ` +
          `${listing.events.length} events queued over ${queued} s${more('events')} (${target.description})\n`,
      );
      return;
    }
  }
}

/** What `ensure-sending` printed for one client. */
export interface EnsuredSending {
  client_id: number;
  tenant: string;
  configuration_set: string;
  /** The tenant and set the client's sending state named before; null when it named none. */
  previous: { tenant: string | null; configuration_set: string | null } | null;
  /** Whether the sending state now names another tenant or set than before. */
  changed: boolean;
}

/**
 * One client's SES tenant and own configuration set, made unless they exist (ensureClientSending is idempotent), and
 * recorded on its sending state: its next e-mail names them. Clients one at a time: SES's management calls are
 * throttled account-wide.
 */
export async function ensureSendingOf(
  deps: {
    settings: Pick<SettingsStore, 'load' | 'recordSending'>;
    senderIdentities: Pick<SenderIdentities, 'ensureClientSending'>;
    clock: { now(): Date };
  },
  clientId: number,
): Promise<EnsuredSending> {
  const month = deps.clock.now().toISOString().slice(0, 7);
  const { sender } = await deps.settings.load(clientId, month);
  const sending = await deps.senderIdentities.ensureClientSending(clientId);
  await deps.settings.recordSending(clientId, sending);
  const previous =
    sender?.tenant || sender?.configuration_set
      ? { tenant: sender.tenant ?? null, configuration_set: sender.configuration_set ?? null }
      : null;
  return {
    client_id: clientId,
    tenant: sending.tenant,
    configuration_set: sending.configurationSet,
    previous,
    changed: previous?.tenant !== sending.tenant || previous?.configuration_set !== sending.configurationSet,
  };
}

/** `redrive`: AWS only with --aws (the queue named by its URL); otherwise the running npm start's in-process queue. */
async function redrive(
  values: { queue?: string; 'queue-url'?: string; aws: boolean },
  apiPort: number | undefined,
): Promise<void> {
  const queue = QUEUE_NAMES.find((name) => name === required(values.queue, '--queue'));
  if (!queue) throw new UsageError(`--queue must be one of ${QUEUE_NAMES.join(', ')}`);
  const env = process.env;
  const wantsAws = values.aws || env['ADMIN_TARGET'] === 'aws';
  if (!wantsAws && env['ADMIN_TARGET'] && env['ADMIN_TARGET'] !== 'local') {
    throw new UsageError(`ADMIN_TARGET must be "local" or "aws", got "${env['ADMIN_TARGET']}"`);
  }
  let outcome: RedriveOutcome;
  if (wantsAws) {
    const queueUrl = values['queue-url'] ?? env[queueUrlVariable(queue)];
    if (!queueUrl)
      throw new UsageError(
        `--aws redrive needs the ${queue} queue's URL: --queue-url URL or ${queueUrlVariable(queue)}`,
      );
    outcome = await redriveOnAws({ queue, queueUrl, region: env['AWS_REGION'] || undefined });
  } else {
    if (values['queue-url'] !== undefined) throw new UsageError('--queue-url names an SQS queue: use it with --aws');
    const runtime = localRuntime(env, apiPort);
    process.stderr.write(`admin: using the npm start on port ${runtime.port} (pid ${runtime.pid})\n`);
    outcome = await redriveLocally(runtime.baseUrl, queue);
  }
  printRedrive(queue, outcome);
}

function printRedrive(queue: QueueName, outcome: RedriveOutcome): void {
  if (outcome.kind === 'moved') {
    print({ queue, moved: outcome.moved });
    return;
  }
  print({
    queue,
    task_handle: outcome.taskHandle,
    source_arn: outcome.sourceArn,
    destination_arn: outcome.destinationArn,
  });
  process.stderr.write(
    `the move goes on in the background: aws sqs list-message-move-tasks --source-arn ${outcome.sourceArn}\n`,
  );
}

/** Explains an unreachable DynamoDB Local and creates the table when a bare DynamoDB Local lacks it. */
async function prepareLocalTable(endpoint: string, tableName: string, region: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    await ensureTable(client, tableName);
  } catch (error) {
    const code =
      (error as { code?: string; cause?: { code?: string } }).code ??
      (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED' || (error as Error).name === 'TimeoutError') {
      throw new Error(
        `No DynamoDB Local answers at ${endpoint}. Start the runtime (npm start) or set DYNAMODB_PORT / ` +
          'AWS_ENDPOINT_URL_DYNAMODB; use --aws with TABLE_NAME to reach AWS.',
      );
    }
    throw error;
  } finally {
    client.destroy();
  }
}

/** Run as the CLI (`tsx scripts/admin.ts`), not imported by a test of what it exports. */
function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  run(process.argv.slice(2)).catch((error: unknown) => {
    const usage = error instanceof UsageError || error instanceof NoRuntimeOnPortError;
    if (usage || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`admin: ${(error as Error).message}\nRun "npm run admin -- help" for usage.\n`);
      process.exit(2);
    }
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
