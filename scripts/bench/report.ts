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

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

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
    out.push({ name: `${phase}: bulk JSON speed-up over the one-by-one loop`, value: speedup, target: '≥ 20×', met: speedup >= 20 });
    out.push({ name: `${phase}: CSV time / bulk JSON time`, value: csvRatio, target: '≤ 1.2', met: csvRatio <= 1.2 });
  }
  for (const r of results.filter((m) => m.method !== 'single')) {
    out.push({ name: `${r.phase} ${r.method}: DynamoDB requests / waves`, value: r.requests, target: '≤ 60 / ≤ 6', met: r.requests <= 60 && r.waves <= 6 });
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

export function markdown(results: Measurement[], info: { repeat: number; date: string; dynamoLocal: string }): string {
  const m = machine();
  const table = [HEADER, HEADER.map(() => '---'), ...tableRows(results)].map((r) => `| ${r.join(' | ')} |`).join('\n');
  const goalLines = goals(results)
    .map((g) => `| ${g.name} | ${g.name.includes('requests') ? g.value : fmt(g.value, 2)} | ${g.target} | ${g.met ? 'met' : 'NOT met'} |`)
    .join('\n');
  return `# Benchmarks

Written by \`npm run bench\` (scripts/bench/) on ${info.date}. Do not edit by hand; run it again.

## What is measured

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
one-by-one loop runs once. Authentication is cached per container, as on Lambda (one GetItem pair per client).

## Machine

| | |
|---|---|
| CPU | ${m.cpu} |
| Memory | ${m.memory} |
| OS | ${m.os} |
| Node.js | ${m.node} |

## Results

${table}

## Goals

| goal | measured | target | |
|---|---|---|---|
${goalLines}

DynamoDB Local runs on the JVM on the same machine, so absolute times are slower than DynamoDB itself; the request
and wave counts are the same on AWS.
`;
}
