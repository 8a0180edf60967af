/**
 * npm run bench:rate-limit — what a per-client rate limit costs and how well it holds, on DynamoDB
 * Local in memory (free port). Two ways to count, both through the real RateLimiter:
 * - shared: one DynamoDB counter item per client and window (DynamoRateCounter), one UpdateItem per admitted request,
 *   none for a request refused by a container that already saw the window full — what the service runs;
 * - per container: each container counts alone in memory (zero requests), as a Lambda container could.
 * For 1, 4 and 16 containers (Lambda runs one container per request in flight, per function) flooding one client
 * whose limit is LIMIT a second, it reports the most requests admitted in one window and the DynamoDB writes per
 * window; then the latency one shared count adds to a request. Writes its table into docs/benchmarks.md between
 * markers. Env: RATE_BENCH_LIMIT (default 50), RATE_BENCH_SECONDS (flood length, default 3), RATE_BENCH_SAMPLES
 * (latency samples, default 2000).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDynamoLocal } from '../../local/dynamodb.js';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { DynamoRateCounter } from '../../shared/adapters/dynamo/rate-counter.js';
import { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';
import { MemoryRateCounter } from '../../shared/adapters/memory/rate-counter.js';
import type { RateCounter } from '../../shared/domain/rate-limits/rate-counter.js';
import { RateLimiter } from '../../shared/domain/rate-limits/rate-limiter.js';

process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
const LIMIT = Number(process.env['RATE_BENCH_LIMIT'] ?? 50);
const SECONDS = Number(process.env['RATE_BENCH_SECONDS'] ?? 3);
const SAMPLES = Number(process.env['RATE_BENCH_SAMPLES'] ?? 2000);
/** Requests each container has in flight at once (a container serves one request at a time; 4 stands for its re-use). */
const IN_FLIGHT = 4;
const TABLE = 'rate-limit-bench';
const START = '<!-- rate-limit:begin -->';
const END = '<!-- rate-limit:end -->';
const clock = { now: () => new Date() };
const limits = { api: LIMIT, events: LIMIT };

interface FloodResult {
  containers: number;
  mode: 'shared' | 'per container';
  requests: number;
  maxAdmittedInWindow: number;
  writesPerWindow: number;
}

/** `containers` limiters flood client `clientId` for SECONDS whole windows; admitted requests counted per window. */
async function flood(
  clientId: number,
  containers: number,
  counterOf: (i: number) => RateCounter,
  writes: () => number,
): Promise<Omit<FloodResult, 'mode'>> {
  const limiters = Array.from(
    { length: containers },
    (_, i) => new RateLimiter({ counter: counterOf(i), clock, onCounterError: () => undefined }),
  );
  const admitted = new Map<number, number>();
  let requests = 0;
  // Start on a window boundary, so every window measured is whole.
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
  const first = Math.floor(Date.now() / 1000);
  const until = (first + SECONDS) * 1000;
  const before = writes();
  const worker = async (limiter: RateLimiter) => {
    while (Date.now() < until) {
      const decision = await limiter.consume(clientId, 'api', limits);
      requests++;
      if (decision.allowed) {
        const window = Math.floor(Date.now() / 1000);
        admitted.set(window, (admitted.get(window) ?? 0) + 1);
      }
      // A refused request answers at once; a little pause keeps a refused flood from starving the event loop.
      if (!decision.allowed) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(limiters.flatMap((limiter) => Array.from({ length: IN_FLIGHT }, () => worker(limiter))));
  return {
    containers,
    requests,
    maxAdmittedInWindow: Math.max(...admitted.values()),
    writesPerWindow: (writes() - before) / SECONDS,
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function main(): Promise<void> {
  const dynamo = await startDynamoLocal({ port: 0, tableName: TABLE });
  try {
    const requestCounter = new RequestCounter();
    const db = createDocumentClient({ region: 'us-east-1', endpoint: dynamo.endpoint, counter: requestCounter });
    const shared = new DynamoRateCounter(db, TABLE);
    const writes = () => requestCounter.total;

    // Warm the JVM and the connection pool.
    for (let i = 0; i < 200; i++)
      await shared.add({ clientId: 999_999, policy: 'api', startsAt: i, expiresAt: i + 61 });

    const results: FloodResult[] = [];
    let clientId = 1;
    for (const containers of [1, 4, 16]) {
      results.push({ mode: 'shared', ...(await flood(clientId++, containers, () => shared, writes)) });
      const own = Array.from({ length: containers }, () => new MemoryRateCounter());
      results.push({
        mode: 'per container',
        // In memory: no DynamoDB request at all.
        ...(await flood(
          clientId++,
          containers,
          (i) => own[i]!,
          () => 0,
        )),
      });
    }

    // The latency of one shared count, sequential (what it adds to a request's path).
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const started = performance.now();
      await shared.add({ clientId: 500_000 + (i % 100), policy: 'api', startsAt: 1_000 + i, expiresAt: 1_061 + i });
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);

    const rows = results.map(
      (r) =>
        `| ${r.containers} | ${r.mode} | ${r.requests.toLocaleString('en')} | **${r.maxAdmittedInWindow}** (${(r.maxAdmittedInWindow / LIMIT).toFixed(1)}× the limit) | ${r.writesPerWindow.toFixed(1)} |`,
    );
    const table = [
      `Client limit ${LIMIT} requests a second; each container keeps ${IN_FLIGHT} requests in flight for ${SECONDS} whole windows.`,
      '',
      '| containers | counting | requests sent | most admitted in one window | DynamoDB writes a window |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
      '',
      `One shared count (UpdateItem, DynamoDB Local, sequential, ${SAMPLES} samples): p50 ${percentile(latencies, 50).toFixed(2)} ms, ` +
        `p95 ${percentile(latencies, 95).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms.`,
    ].join('\n');
    const section = `${START}\n${table}\n\nMeasured by \`npm run bench:rate-limit\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}).\n${END}`;
    const docPath = join(import.meta.dirname, '..', '..', 'docs', 'benchmarks.md');
    const doc = readFileSync(docPath, 'utf8');
    writeFileSync(
      docPath,
      doc.includes(START)
        ? doc.slice(0, doc.indexOf(START)) + section + doc.slice(doc.indexOf(END) + END.length)
        : `${doc.trimEnd()}\n\n## Per-client rate limits\n\n${section}\n`,
    );
    console.log(table);
  } finally {
    await dynamo.stop();
  }
}

await main();
