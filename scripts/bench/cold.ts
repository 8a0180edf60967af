/**
 * `npm run bench:cold` (issue 11): synthesises the stack (cdk synth, which bundles every function as on AWS), then for
 * every Lambda function of the template prints its bundle size and its cold-process ratio against a hello-world
 * handler — a new Node process importing the bundle, timed against one importing a one-line handler, alternating
 * (hello, bundle, hello, bundle, …) on the same Node and machine, the ratio of each pair, median of the ratios — and
 * writes the table into docs/benchmarks.md between its cold-start markers. `COLD_RUNS` pairs per function (default
 * 11); `COLD_SKIP_SYNTH=1` reuses cdk.out. Times stay here, never in tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = Number(process.env['COLD_RUNS'] ?? 11);
const BUDGET_BYTES = 250 * 1024;
const BUDGET_RATIO = 1.5;
const START = '<!-- cold-start:begin -->';
const END = '<!-- cold-start:end -->';

/** What a function needs in its environment not to fail at import (the values are never used to reach anything). */
const ENV = {
  ...process.env,
  TABLE_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  LINK_SECRET: 'x'.repeat(32),
  PUBLIC_BASE_URL: 'https://bench.example',
  EVENTS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/events',
  WORKFLOW_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/workflow',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

interface FunctionBundle {
  name: string;
  file: string;
  bytes: number;
}

function synthesise(): void {
  if (process.env['COLD_SKIP_SYNTH'] === '1') return;
  console.log('Synthesising (cdk synth bundles every function)…');
  execFileSync('npx', ['cdk', 'synth', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
}

function bundles(): FunctionBundle[] {
  const template = JSON.parse(readFileSync(join(ROOT, 'cdk.out', 'EmailLifecycle.template.json'), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: { Description?: string }; Metadata?: Record<string, string> }>;
  };
  return Object.values(template.Resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function' && r.Metadata?.['aws:asset:path'] && r.Properties.Description)
    .map((r) => {
      const file = join(ROOT, 'cdk.out', r.Metadata!['aws:asset:path']!, 'index.mjs');
      return { name: r.Properties.Description!, file, bytes: statSync(file).size };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

/** Milliseconds for a new Node process to import `file` and exit. */
function coldImport(file: string): number {
  const started = performance.now();
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)});`], {
    env: ENV,
    encoding: 'utf8',
  });
  const elapsed = performance.now() - started;
  if (out.status !== 0) throw new Error(`importing ${file} failed: ${out.stderr.slice(0, 500)}`);
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function main(): void {
  synthesise();
  const hello = join(mkdtempSync(join(tmpdir(), 'cold-')), 'index.mjs');
  writeFileSync(hello, 'export const handler = async () => ({ statusCode: 200, body: "ok" });\n');
  coldImport(hello); // warms the file system cache
  const rows = bundles().map((bundle) => {
    coldImport(bundle.file);
    const ratios: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const base = coldImport(hello);
      ratios.push(coldImport(bundle.file) / base);
    }
    const ratio = median(ratios);
    console.log(`${(bundle.bytes / 1024).toFixed(0).padStart(5)} KB  ×${ratio.toFixed(2)}  ${bundle.name}`);
    return { ...bundle, ratio };
  });
  const table = [
    '| function | bundle (minified) | ≤ 250 KB | cold process / hello world (median of ' + RUNS + ' pairs) | ≤ 1.5× |',
    '| --- | ---: | --- | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${(r.bytes / 1024).toFixed(0)} KB | ${r.bytes <= BUDGET_BYTES ? 'yes' : 'no'} | ${r.ratio.toFixed(2)} | ${r.ratio <= BUDGET_RATIO ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
  const docPath = join(ROOT, 'docs', 'benchmarks.md');
  const doc = readFileSync(docPath, 'utf8');
  const section = `${START}\n${table}\n\nMeasured by \`npm run bench:cold\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}).\n${END}`;
  const next = doc.includes(START)
    ? doc.slice(0, doc.indexOf(START)) + section + doc.slice(doc.indexOf(END) + END.length)
    : `${doc.trimEnd()}\n\n## Cold starts (issue 11)\n\nEach function's bundle as \`cdk synth\` builds it (esbuild, minified; the AWS SDK left to the runtime), and a new Node process importing it against one importing a one-line handler, alternating, on this machine.\n\n${section}\n`;
  writeFileSync(docPath, next);
  const over = rows.filter((r) => r.bytes > BUDGET_BYTES || r.ratio > BUDGET_RATIO).length;
  console.log(`\n${rows.length} functions; ${over} over a budget (250 KB, 1.5×). Table written to docs/benchmarks.md.`);
}

main();
