/**
 * npm run bench:sweep — the outbox sweeper's recovery rate, on DynamoDB Local in memory (free port):
 * seeds a backlog of queued events as the ingest writes them (DynamoEventStore's item: record + queued gsi1 entry,
 * ≈ 2 KB each, by BatchWriteItem), then runs the real sweeper over the real DynamoDB adapter and the real SqsQueue
 * and SQSClient, sending to a local stand-in of SQS's JSON protocol that counts SendMessageBatch calls and their
 * entries and answers each after a simulated latency. The backlog stays queued (nothing consumes it), so every run sweeps all of it; the first run of
 * each latency warms the JVM and is not reported.
 *
 * Env: SWEEP_EVENTS (default 50000), SWEEP_SQS_LATENCY_MS (comma list, default "20,0"), SWEEP_DYNAMO_LATENCY_MS
 * (added to every DynamoDB request, default 0), SWEEP_RUNS (measured runs per latency, default 2),
 * SWEEP_SQS_CONCURRENCY (SendMessageBatch calls in flight, default the adapter's 10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynamoLocal } from '../../local/dynamodb.js';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { DynamoEventStore, eventItem } from '../../shared/adapters/dynamo/event-store.js';
import { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';
import { DEFAULT_SQS_BATCH, SqsQueue } from '../../shared/adapters/sqs/sqs-queue.js';
import type { EventRecord } from '../../shared/domain/events/event-record.js';
import type { EventStore } from '../../shared/domain/events/event-store.js';
import type { Queue } from '../../shared/platform.js';
import { SWEEP_BUDGET_MS, SWEEP_PAGE_SIZE, sweepQueuedEvents } from '../../shared/domain/events/sweep-events.js';

// The SDK warns that its 2027 releases need Node 22 (as vitest.config.ts silences it).
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
const EVENTS = Number(process.env['SWEEP_EVENTS'] ?? 50_000);
const SQS_LATENCIES = (process.env['SWEEP_SQS_LATENCY_MS'] ?? '20,0').split(',').map(Number);
const DYNAMO_LATENCY_MS = Number(process.env['SWEEP_DYNAMO_LATENCY_MS'] ?? 0);
const RUNS = Math.max(1, Number(process.env['SWEEP_RUNS'] ?? 2));
const SQS_CONCURRENCY = Number(process.env['SWEEP_SQS_CONCURRENCY'] ?? DEFAULT_SQS_BATCH.concurrency);
const TABLE = 'sweep-bench';
const REGION = process.env['AWS_REGION'] ?? 'us-east-1';
const OUTAGE_MS = 10 * 60_000;
const SEED_CALLS_IN_FLIGHT = 8;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An async event as POST /client/events stores it, ≈ 2 KB with its raw request (docs/capacity.md §1). */
function backlogEvent(id: number, createdAt: string): EventRecord {
  const metadata = { plan: 'pro', note: 'x'.repeat(700), source_ref: `crm-${id}` };
  const payload = { type: 'trial_ending', email: `user-${id}@example.com`, metadata };
  return {
    id,
    client_id: 1 + (id % 50),
    type: 'trial_ending',
    email: `user-${id}@example.com`,
    auto_create_contact: false,
    metadata,
    ts: createdAt,
    payload,
    mode: 'async',
    queue_status: 'queued',
    retry_count: 0,
    created_at: createdAt,
  };
}

/** `count` queued events created evenly over a 10-minute outage that ended 3 minutes ago. */
async function seed(db: DynamoDBDocumentClient, count: number): Promise<void> {
  const end = Date.now() - 3 * 60_000;
  const items = Array.from({ length: count }, (_, i) =>
    eventItem(
      backlogEvent(1_000_000 + i, new Date(end - OUTAGE_MS + Math.floor((i * OUTAGE_MS) / count)).toISOString()),
    ),
  );
  let next = 0;
  const writer = async () => {
    while (next < items.length) {
      const start = next;
      next += 25;
      let puts = items.slice(start, next).map((Item) => ({ PutRequest: { Item } }));
      while (puts.length > 0) {
        const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: puts } }));
        puts = (out.UnprocessedItems?.[TABLE] ?? []) as typeof puts;
      }
    }
  };
  await Promise.all(Array.from({ length: SEED_CALLS_IN_FLIGHT }, writer));
}

/**
 * SQS's JSON protocol for SendMessageBatch on a local port, in a child process (its CPU is not the sweeper's), so
 * the real SQSClient does all its work (serialising, signing, HTTP keep-alive, parsing, checking each
 * MD5OfMessageBody): every entry accepted after the latency set by `GET /reset?latency=<ms>`; `GET /stats` counts.
 */
const FAKE_SQS = `
const { createServer } = require('node:http');
const { createHash, randomUUID } = require('node:crypto');
let latency = 0, calls = 0, messages = 0, ids = new Set();
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/reset') { latency = Number(url.searchParams.get('latency')); calls = 0; messages = 0; ids = new Set(); }
    return res.end(JSON.stringify({ calls, messages, distinct: ids.size }));
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    calls += 1;
    messages += input.Entries.length;
    for (const e of input.Entries) ids.add(JSON.parse(e.MessageBody).event_id);
    const body = JSON.stringify({
      Successful: input.Entries.map((e) => ({ Id: e.Id, MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex') })),
      Failed: [],
    });
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(body), latency);
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

interface FakeSqsStats {
  calls: number;
  messages: number;
  distinct: number;
}

class FakeSqs {
  private child?: ChildProcess;
  endpoint = '';

  async start(): Promise<string> {
    const child = spawn(process.execPath, ['-e', FAKE_SQS], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.child = child;
    const port = await new Promise<string>((resolve) =>
      child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim())),
    );
    this.endpoint = `http://127.0.0.1:${port}`;
    return this.endpoint;
  }

  async reset(latencyMs: number): Promise<void> {
    await fetch(`${this.endpoint}/reset?latency=${latencyMs}`);
  }

  async stats(): Promise<FakeSqsStats> {
    return (await (await fetch(`${this.endpoint}/stats`)).json()) as FakeSqsStats;
  }

  stop(): void {
    this.child?.kill();
  }
}

interface RunFigures {
  sqsLatencyMs: number;
  ms: number;
  enqueued: number;
  distinct: number;
  pages: number;
  queries: number;
  batchCalls: number;
  readMs: number;
  sendMs: number;
  /** This process's CPU time for the run: the sweeper and both SDK clients (the fake SQS is another process). */
  cpuMs: number;
}

async function sweepOnce(
  store: EventStore,
  counter: RequestCounter,
  sqs: FakeSqs,
  queue: SqsQueue,
  sqsLatencyMs: number,
): Promise<RunFigures> {
  await sqs.reset(sqsLatencyMs);
  let readMs = 0;
  const timed: EventStore = {
    insert: (...args) => store.insert(...args),
    get: (...args) => store.get(...args),
    listQueuedBefore: async (...args) => {
      const started = performance.now();
      try {
        return await store.listQueuedBefore(...args);
      } finally {
        readMs += performance.now() - started;
      }
    },
  };
  let sendMs = 0;
  const timedQueue: Queue = {
    send: (...args) => queue.send(...args),
    sendBatch: async (...args) => {
      const started = performance.now();
      try {
        return await queue.sendBatch(...args);
      } finally {
        sendMs += performance.now() - started;
      }
    },
  };
  counter.reset();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const summary = await sweepQueuedEvents(
    { events: timed, queue: timedQueue, clock: { now: () => new Date() } },
    { budgetMs: Number.POSITIVE_INFINITY },
  );
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const sent = await sqs.stats();
  return {
    sqsLatencyMs,
    ms,
    enqueued: summary.enqueued,
    distinct: sent.distinct,
    pages: summary.pages,
    queries: counter.byCommand.get('QueryCommand') ?? 0,
    batchCalls: sent.calls,
    readMs,
    sendMs,
    cpuMs: (used.user + used.system) / 1000,
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function report(run: RunFigures): string {
  const rate = (run.enqueued / run.ms) * 1000;
  const perThousand = (n: number) => fmt((n / run.enqueued) * 1000, 1);
  const cells = [
    `${run.sqsLatencyMs} ms`,
    `${fmt(run.enqueued)} (${fmt(run.distinct)} distinct)`,
    `${fmt(run.ms / 1000, 1)} s`,
    `**${fmt(rate)}**`,
    fmt(run.pages),
    `${perThousand(run.queries)} + ${perThousand(run.batchCalls)}`,
    `${fmt(run.readMs / run.pages)} / ${fmt(run.sendMs / run.pages)} ms`,
    `${fmt((run.cpuMs / run.enqueued) * 1000)} ms`,
    fmt(rate * (SWEEP_BUDGET_MS / 1000)),
    `${fmt(120_000 / rate)} s`,
  ];
  return `| ${cells.join(' | ')} |`;
}

async function main(): Promise<void> {
  console.log(
    `Sweeper bench: ${fmt(EVENTS)} queued events, page ${SWEEP_PAGE_SIZE}, ${SQS_CONCURRENCY} SendMessageBatch in flight, SQS latency ${SQS_LATENCIES.join(' / ')} ms, DynamoDB latency +${DYNAMO_LATENCY_MS} ms`,
  );
  const dynamo = await startDynamoLocal({ port: 0, tableName: TABLE });
  try {
    const counter = new RequestCounter();
    const db = createDocumentClient({ region: REGION, endpoint: dynamo.endpoint, counter });
    if (DYNAMO_LATENCY_MS > 0) {
      db.middlewareStack.add(
        (next) => async (args) => {
          await sleep(DYNAMO_LATENCY_MS);
          return next(args);
        },
        {
          step: 'finalizeRequest',
          name: 'benchLatency',
          priority: 'low',
        },
      );
    }
    const seedStarted = performance.now();
    await seed(createDocumentClient({ region: REGION, endpoint: dynamo.endpoint }), EVENTS);
    console.log(`Seeded in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);

    const store = new DynamoEventStore(db, TABLE);
    const sqs = new FakeSqs();
    const sqsEndpoint = await sqs.start();
    const sqsClient = new SQSClient({
      region: REGION,
      endpoint: sqsEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const queue = new SqsQueue(
      sqsClient,
      { events: `${sqsEndpoint}/000000000000/events` },
      { concurrency: SQS_CONCURRENCY },
    );
    const rows: string[] = [];
    for (const latency of SQS_LATENCIES) {
      const warm = await sweepOnce(store, counter, sqs, queue, latency);
      console.log(`warm-up, SQS ${latency} ms: ${fmt(warm.enqueued)} in ${fmt(warm.ms / 1000, 1)} s`);
      for (let run = 0; run < RUNS; run += 1) {
        const figures = await sweepOnce(store, counter, sqs, queue, latency);
        if (figures.enqueued !== EVENTS || figures.distinct !== EVENTS) {
          throw new Error(`the sweep enqueued ${figures.enqueued} (${figures.distinct} distinct) of ${EVENTS}`);
        }
        rows.push(report(figures));
        console.log(rows.at(-1));
      }
    }
    console.log(`
Machine: ${cpus()[0]?.model ?? 'unknown CPU'} × ${availableParallelism()}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}
| simulated SQS latency per SendMessageBatch | events enqueued | wall | events/s | pages | requests per 1,000 events (Query + SendMessageBatch) | read / send per page | Node CPU per 1,000 events | events per ${SWEEP_BUDGET_MS / 1000} s run | 120,000 events |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}`);
    sqsClient.destroy();
    sqs.stop();
  } finally {
    await dynamo.stop();
  }
}

await main();
