import type { Server } from 'node:http';
import { API_BASE_PATH } from '../functions/routes.js';
import { createContainer, setContainer } from '../shared/composition/container.js';
import { localSenderIdentities } from '../shared/composition/providers/local-sender-identities.js';
import { tableOf } from '../shared/composition/providers/table.js';
import { TenantPauseMailer } from '../shared/adapters/local-ses/tenant-pause-mailer.js';
import {
  createFaultInjection,
  faultSettingsFromEnv,
  type FaultInjection,
  type FaultSettings,
} from '../shared/adapters/faults/fault-injection.js';
import { startDynamoLocal, type DynamoLocalHandle } from './dynamodb.js';
import { LOCAL_EXECUTION_LEASE_SECONDS } from './execution-lease.js';
import { JOURNEY_MINUTE_ENV, journeyTimeFromEnv } from './journey-time.js';
import { reservePort, urlHost } from './tcp-ports.js';
import { allowedHosts } from './host-check.js';
import { createLocalServer, type LocalServerOptions } from './server.js';
import { startSesLocal, type SesLocalHandle } from './ses.js';
import { createLocalEngine, ensureLinkSecret, type LocalEngine } from './engine/local-engine.js';
import { recoverEngine } from './engine/recovery.js';
import { startScheduledFunctions } from './engine/scheduled-functions.js';
import { LocalStreamPoller } from './engine/stream-poller.js';

/**
 * The whole local runtime in one process: DynamoDB Local (Java child), aws-ses-v2-local and the HTTP server,
 * with the process environment pointed at them before the handlers' dependencies are built.
 */
export interface LocalRuntimeOptions {
  /** API port; 0 = a free one. Default 3000. */
  port?: number;
  /** Default 8000; 0 = a free one. */
  dynamoPort?: number;
  /** Default 8005; 0 = a free one. */
  sesPort?: number;
  /** Persist DynamoDB under this folder; absent = in memory. */
  dataDir?: string;
  /** Interface the API, SES and DynamoDB Local listen on. Default 127.0.0.1. */
  host?: string;
  /** Default: env TABLE_NAME, else `email-lifecycle`. */
  tableName?: string;
  accessLog?: LocalServerOptions['accessLog'];
  errorLog?: LocalServerOptions['errorLog'];
  /** CORS (env CORS_ORIGINS, as infra reads it): off when absent. */
  cors?: LocalServerOptions['cors'];
  /**
   * Run the scheduled functions (outbox and stuck-execution sweeps) at start and on their timers. Default true. The
   * integration run turns them off: its contract suites leave claims and queued events with fixed past times in the
   * shared table, which a sweep would act on mid-test; the sweeps are tested in runtimes of their own.
   */
  periodicSweeps?: boolean;
  /** Fault injection (docs/development.md "Fault injection"); absent: env FAULTS / FAULTS_SEED; false: none. */
  faults?: FaultSettings | false;
  /**
   * The client's IP from the last X-Forwarded-For entry (a proxy of your own in front); default: env
   * TRUST_X_FORWARDED_FOR=true, else the socket's address, whatever the request says.
   */
  trustForwardedFor?: boolean;
  /**
   * Milliseconds one minute of a journey's wait or timeout lasts (local/journey-time.ts); default: env
   * LOCAL_JOURNEY_MINUTE_MS, else a real minute. Tests set it so a journey's timeout passes in seconds.
   */
  journeyMinuteMs?: number;
}

export interface LocalRuntime {
  /** e.g. `http://127.0.0.1:3000/api/v1` */
  baseUrl: string;
  /** aws-ses-v2-local: the SDK endpoint and the mail viewer (`/`). */
  sesUrl: string;
  dynamoEndpoint: string;
  /** DynamoDB Local's Java process (benchmarks read its CPU time beside the runtime's). */
  dynamoPid: number | undefined;
  /** Set when DynamoDB Local could not be bound to `host` (it then listens on every interface), saying why. */
  dynamoWarning?: string;
  tableName: string;
  port: number;
  /** The in-process queues, scheduler and mailer (tests and benchmarks wait on `engine.queue.idle()`). */
  engine: LocalEngine;
  /**
   * The table's change stream read for the stream functions (functions/streams.ts): `streams.settled()` waits until
   * every function took every change so far; `streams.onApplied(handler, listener)` hears each batch a function took.
   */
  streams: LocalStreamPoller;
  /** The active fault injection, set only when faults are on; `faults.counts()` = injected faults by target and kind. */
  faults?: FaultInjection;
  /** Stops the server, SES and the Java process; safe to call twice. */
  stop(): Promise<void>;
}

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const host = options.host ?? '127.0.0.1';
  const tableName = options.tableName ?? process.env['TABLE_NAME'] ?? 'email-lifecycle';
  // Fault injection: parsed before anything starts, so a bad FAULTS fails at once.
  const faultSettings = options.faults === false ? undefined : (options.faults ?? faultSettingsFromEnv(process.env));
  const faults = faultSettings ? createFaultInjection(faultSettings) : undefined;
  const journeyTime =
    options.journeyMinuteMs !== undefined
      ? journeyTimeFromEnv({ [JOURNEY_MINUTE_ENV]: String(options.journeyMinuteMs) })
      : journeyTimeFromEnv(process.env);
  // Fail on a busy API port before Java is spawned; port 0 becomes a concrete port here.
  const port = await reservePort(options.port ?? 3000, host, 'PORT');

  const [dynamo, ses] = await startBoth(
    () => startDynamoLocal({ port: options.dynamoPort ?? 8000, host, dataDir: options.dataDir, tableName }),
    () => startSesLocal({ host, port: options.sesPort ?? 8005 }),
  );

  const origin = `http://${urlHost(host)}:${port}`;
  pointEnvironmentAt({ dynamoEndpoint: dynamo.endpoint, sesUrl: ses.url, tableName, origin });
  ensureLinkSecret(options.dataDir);
  // The queue, scheduler and mailer ports are the local engine's; everything else is the AWS code against the
  // local endpoints. One container behind every route and queue function, like one warm Lambda container.
  const engine = createLocalEngine({
    sesUrl: ses.url,
    region: process.env['AWS_REGION'] ?? 'us-east-1',
    faults,
    dataDir: options.dataDir,
  });
  const container = createContainer({
    overrides: {
      ...engine.overrides,
      // SES refuses a send through a paused tenant; the local SES knows no tenants, so the local registry does.
      mailer: new TenantPauseMailer(engine.overrides.mailer, (tenant) =>
        container.use(localSenderIdentities).findTenantStatus(tenant),
      ),
      // A journey minute shortened for tests; absent, the provider's real minute.
      ...(journeyTime ? { journeyTime } : {}),
    },
  });
  if (journeyTime)
    console.log(`Journey waits sped up: one minute lasts ${journeyTime.minuteMs} ms (${JOURNEY_MINUTE_ENV})`);
  if (faults) {
    // The container's one DynamoDB client (its request counter still counts every attempt), before its first request.
    faults.dynamo(tableOf(container).db);
    console.log(faults.describe());
  }
  setContainer(container);
  if (options.dataDir) {
    const recovered = await recoverEngine(container, engine);
    if (Object.values(recovered).some((n) => n > 0))
      console.log(`Recovered after restart: ${JSON.stringify(recovered)}`);
  }
  // The table's change stream → functions/streams.ts, as Lambda's event source mapping reads DynamoDB Streams.
  const streams = new LocalStreamPoller({
    endpoint: dynamo.endpoint,
    region: process.env['AWS_REGION'] ?? 'us-east-1',
    tableName,
  });
  await streams.start();
  const scheduled = options.periodicSweeps === false ? { stop: () => {} } : startScheduledFunctions();

  const server = createLocalServer({
    accessLog: options.accessLog,
    errorLog: options.errorLog,
    cors: options.cors,
    // Its own names, and those of the origins its links and pages are served under (set above or by the caller).
    allowedHosts: allowedHosts({
      port,
      bindHost: host,
      origins: [process.env['PUBLIC_BASE_URL'], process.env['LINKS_BASE_URL']],
    }),
    trustForwardedFor: options.trustForwardedFor ?? process.env['TRUST_X_FORWARDED_FOR'] === 'true',
  });
  try {
    await listen(server, port, host);
  } catch (error) {
    scheduled.stop();
    await streams.stop();
    await engine.stop();
    await Promise.allSettled([dynamo.stop(), ses.stop()]);
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    baseUrl: `${origin}${API_BASE_PATH}`,
    sesUrl: ses.url,
    dynamoEndpoint: dynamo.endpoint,
    dynamoPid: dynamo.pid,
    ...(dynamo.warning ? { dynamoWarning: dynamo.warning } : {}),
    tableName,
    port,
    engine,
    streams,
    ...(faults ? { faults } : {}),
    stop: () =>
      (stopping ??= (async () => {
        scheduled.stop();
        await closeServer(server);
        await streams.stop();
        await engine.stop();
        await Promise.allSettled([ses.stop(), dynamo.stop()]);
        setContainer(undefined);
      })()),
  };
}

/** Environment the SDK clients and config read; set before the container is built so every handler talks to the local stores. */
export function pointEnvironmentAt(target: {
  dynamoEndpoint: string;
  sesUrl: string;
  tableName: string;
  origin: string;
}): void {
  process.env['AWS_ENDPOINT_URL_DYNAMODB'] = target.dynamoEndpoint;
  process.env['AWS_ENDPOINT_URL_SESV2'] = target.sesUrl;
  process.env['TABLE_NAME'] = target.tableName;
  process.env['AWS_REGION'] ??= 'us-east-1';
  // Never let a local run pick up real AWS credentials from the shell.
  process.env['AWS_ACCESS_KEY_ID'] = 'local';
  process.env['AWS_SECRET_ACCESS_KEY'] = 'local';
  delete process.env['AWS_SESSION_TOKEN'];
  process.env['PUBLIC_BASE_URL'] ??= target.origin;
  process.env['EXECUTION_LEASE_SECONDS'] ??= String(LOCAL_EXECUTION_LEASE_SECONDS);
  // The rate broadcasts are paced against (their share of it): what the local executor sustains, not SES's 14.
  process.env['SES_MAX_SEND_RATE'] ??= '50';
  // The From of the service's own e-mails (sign-in links, invitations) in the SES viewer.
  process.env['SYSTEM_FROM_EMAIL'] ??= 'accounts@email-lifecycle.example';
  // The local SES publishes status events for mail sent with a configuration set: the system mail's, like AWS's.
  process.env['SES_SYSTEM_CONFIGURATION_SET'] ??= 'email-lifecycle-system';
  // Webhooks may reach a receiver on this machine (http, loopback); AWS leaves it unset: https and public addresses only.
  process.env['WEBHOOK_ALLOW_PRIVATE_URLS'] ??= 'true';
  // Sending domains: SES's identities and tenants in a registry in the table, DNS as records a developer publishes
  // (PUT /dev/dns-records), and the sandbox's onboarding sender on a domain of its own, apart from the system sender's.
  process.env['SENDER_IDENTITIES'] ??= 'local';
  process.env['DNS_RESOLVER'] ??= 'local';
  process.env['ONBOARDING_FROM_ADDRESS'] ??= 'onboarding@onboarding.email-lifecycle.example';
  // The developer's own browser, scripts and benchmarks are not limited per IP; another machine's requests (HOST
  // 0.0.0.0) and other loopback addresses (127.0.0.2, the integration test's) are.
  process.env['IP_RATE_LIMIT_EXEMPT'] ??= '127.0.0.1/32,::1/128';
}

/** Starts two services in parallel; when one fails, the other is stopped before the error is rethrown. */
async function startBoth(
  startDynamo: () => Promise<DynamoLocalHandle>,
  startSes: () => Promise<SesLocalHandle>,
): Promise<[DynamoLocalHandle, SesLocalHandle]> {
  const [dynamo, ses] = await Promise.allSettled([startDynamo(), startSes()]);
  if (dynamo.status === 'fulfilled' && ses.status === 'fulfilled') return [dynamo.value, ses.value];
  await Promise.allSettled([
    dynamo.status === 'fulfilled' ? dynamo.value.stop() : undefined,
    ses.status === 'fulfilled' ? ses.value.stop() : undefined,
  ]);
  throw dynamo.status === 'rejected' ? dynamo.reason : (ses as PromiseRejectedResult).reason;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
