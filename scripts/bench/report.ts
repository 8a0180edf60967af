import os from 'node:os';
import type { Method, Phase } from './scenarios.js';

export interface Measurement {
  phase: Phase;
  method: Method;
  what: string;
  rows: number;
  ms: number;
  requests: number;
  waves: number;
  byCommand: Record<string, number>;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function tableRows(results: Measurement[]): string[][] {
  return results.map((r) => [
    r.phase,
    r.what,
    fmt(r.ms),
    fmt((r.rows / r.ms) * 1000),
    fmt(r.requests),
    fmt(r.waves),
    Object.entries(r.byCommand)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([c, n]) => `${c} ${n}`)
      .join(', '),
  ]);
}

const HEADER = ['phase', 'what', 'wall ms', 'rows/s', 'DynamoDB requests', 'waves', 'requests by command'];

export function printTable(results: Measurement[]): void {
  const rows = [HEADER, ...tableRows(results)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [n, row] of rows.entries()) {
    console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

export interface Goal {
  name: string;
  value: number;
  target: string;
  met: boolean;
}

export function goals(results: Measurement[]): Goal[] {
  const get = (phase: Phase, method: Method) => results.find((r) => r.phase === phase && r.method === method)!;
  const out: Goal[] = [];
  for (const phase of ['create', 'update'] as const) {
    const speedup = get(phase, 'single').ms / get(phase, 'bulk').ms;
    const csvRatio = get(phase, 'csv').ms / get(phase, 'bulk').ms;
    out.push({
      name: `${phase}: bulk JSON speed-up over the one-by-one loop`,
      value: speedup,
      target: '≥ 20×',
      met: speedup >= 20,
    });
    out.push({ name: `${phase}: CSV time / bulk JSON time`, value: csvRatio, target: '≤ 1.2', met: csvRatio <= 1.2 });
  }
  for (const r of results.filter((m) => m.method !== 'single')) {
    const met = r.requests <= 60 && r.waves <= 6;
    out.push({
      name: `${r.phase} ${r.method}: DynamoDB requests / waves`,
      value: r.requests,
      target: '≤ 60 / ≤ 6',
      met,
    });
  }
  return out;
}

export function machine(): Record<string, string> {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    memory: `${fmt(os.totalmem() / 1024 ** 3, 1)} GiB`,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
  };
}

export interface Suite {
  /** Modelled DynamoDB round trip added to every request (0 = DynamoDB Local as is). */
  latencyMs: number;
  results: Measurement[];
}

function suiteMarkdown(suite: Suite): string {
  const table = [HEADER, HEADER.map(() => '---'), ...tableRows(suite.results)]
    .map((r) => `| ${r.join(' | ')} |`)
    .join('\n');
  const goalLines = goals(suite.results)
    .map(
      (g) =>
        `| ${g.name} | ${g.name.includes('requests') ? g.value : fmt(g.value, 2)} | ${g.target} | ${g.met ? 'met' : 'NOT met'} |`,
    )
    .join('\n');
  const title =
    suite.latencyMs === 0
      ? '## Results: DynamoDB Local as it answers'
      : `## Results: with a modelled round trip of ${suite.latencyMs} ms a DynamoDB request`;
  return `${title}\n\n${table}\n\n| goal | measured | target | |\n|---|---|---|---|\n${goalLines}\n`;
}

export function markdown(
  suites: Suite[],
  info: {
    repeat: number;
    date: string;
    dynamoLocal: string;
    floor: { items: number; ms: number };
    engine?: string;
    stats?: string;
    webhooks?: string;
  },
): string {
  const m = machine();
  const single = suites[0]?.results.find((r) => r.phase === 'create' && r.method === 'single');
  const ceiling = single ? single.ms / info.floor.ms : NaN;
  return `# Benchmarks

Written by \`npm run bench\` (scripts/bench/) on ${info.date}. Do not edit by hand; run it again.

## What is measured

Two parts: the contact import (below) and the lifecycle engine, 1000 events until 1000 e-mails are in the SES
emulator, with its request budgets (last section).

1000 contacts (e-mail, names, company, time zone, client_contact_id) brought into an empty client three ways, each
against its own fresh client on the local runtime (the real handlers over HTTP, DynamoDB Local ${info.dynamoLocal}):

- **single**: 1000 × \`POST /client/contacts\`, one after the other;
- **bulk**: 1 × \`POST /client/contacts/bulk\` with the 1000 contacts;
- **csv**: 1 × \`POST /client/contacts/bulk/csv\` with the same 1000 rows as a file.

Then the same 1000 again with a changed first name (**update**): bulk and CSV as above; the one-by-one baseline sends
1000 × \`POST /client/contacts/bulk\` with one row each (there is no single-contact update route).

Wall time is measured by the HTTP client; DynamoDB requests are counted by a middleware on the SDK client (every
attempt, retries included); waves are the longest chain of requests that ran one after another (requests that
overlap in time share a wave). Bulk and CSV figures are the median of ${info.repeat} runs, each on a fresh client; the
one-by-one loop runs once. Everything runs once before measuring (JIT warm-up of Node and of DynamoDB Local's JVM).
Authentication is cached per container, as on Lambda: each fresh client costs one GetItem pair on its first request.

## Machine

| | |
|---|---|
| CPU | ${m.cpu} |
| Memory | ${m.memory} |
| OS | ${m.os} |
| Node.js | ${m.node} |

${suites.map(suiteMarkdown).join('\n')}
## The emulator's write floor

The fastest DynamoDB Local on this machine takes ${fmt(info.floor.items)} item writes — what 1000 new contacts need
(contact, e-mail lock, uid lock) — is **${fmt(info.floor.ms)} ms**: unconditional BatchWriteItem, 25 items a call,
every call at once (median of 3). No bulk create can finish sooner here, so the best create speed-up the local
runtime can show over the ${fmt(single?.ms ?? NaN)} ms one-by-one loop is **${fmt(ceiling, 1)}×**, whatever the
request count. The 20× goal therefore cannot be shown on DynamoDB Local; it needs a deployed stage.

## Reading the figures

DynamoDB Local answers from the same machine in well under a millisecond, but it applies writes one at a time
(measured on this machine: about 3,000 transaction actions a second, whether the transactions arrive in parallel or
not). The bulk paths spend most of their time there: 1000 new contacts are 3,000 actions (contact, e-mail lock, uid
lock), 1000 updates 1,000. The one-by-one loop pays the same writes plus a round trip per request, which localhost
makes nearly free, so locally the speed-up is bounded by the emulator's write rate rather than by the request count.
On AWS every request costs a network round trip of a few milliseconds (and each single create also pays API Gateway
and Lambda), so the time follows the sequential waves: the second table adds a modelled round trip to every request
to show that shape. The request and wave counts are the same in both tables and on AWS.

One caveat for AWS: a client's contacts and their locks share the partition key \`CLIENT#<id>\` (docs/capacity.md).
A partition takes about 1,000 write units a second and a transactional write costs 2 per item, so a 1000-contact
import (about 6,000 units) relies on burst capacity and DynamoDB's split-for-heat; beyond that it is throttled, and the import's
backoff retries keep every row landing exactly once, at the cost of wall time.
${info.engine ? `\n${info.engine}` : ''}${info.stats ? `\n${info.stats}` : ''}${info.webhooks ? `\n${info.webhooks}` : ''}`;
}
