/**
 * `npm run bench:cold`: synthesises the stack (cdk synth bundles every function as on AWS), then for every
 * Lambda function prints its bundle size and its cold-process ratio against a hello-world handler, and writes the
 * table into docs/benchmarks.md between its cold-start markers.
 *
 * - Sizes: the deployed bundle (`cdk.out`, the AWS SDK clients bundled in: infra/bundling.ts) and the function's own
 *   code (the same entry without the SDK, the size the 250 KB budget and test/infra/bundle-size.test.ts apply to).
 * - Cold process: a new Node process importing the deployed bundle, timed against one importing a one-line handler,
 *   alternating (hello, bundle, hello, bundle, …) on the same Node and machine; the ratio of each pair, median.
 *
 * Each function's entry comes from infra/function-entries.ts and is built with infra/bundling.ts's options; the bench
 * refuses to run when that build differs from the file `cdk synth` wrote, so it always times what CDK deploys.
 * `COLD_RUNS` pairs per function (default 11); `COLD_SKIP_SYNTH=1` reuses cdk.out. Times stay here, never in tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions, type BundleScope } from '../../infra/bundling.js';
import { functionEntries } from '../../infra/function-entries.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = Number(process.env['COLD_RUNS'] ?? 11);
const BUDGET_BYTES = 250 * 1024;
const BUDGET_RATIO = 1.5;
const START = '<!-- cold-start:begin -->';
const END = '<!-- cold-start:end -->';
/** The goal binds these two: the health check, and whichever deployed bundle is largest. */
const HEALTH = 'http/health';

/**
 * No service setting at all: a function parses its configuration and builds its clients on the first request, so
 * importing it must succeed without TABLE_NAME, queue URLs or secrets (cold start: nothing at module scope that can
 * wait). Only PATH and the SDK's Node-version notice are passed on.
 */
const ENV = { PATH: process.env['PATH'] ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

interface Measured {
  name: string;
  file: string;
  deployedBytes: number;
  ownBytes: number;
  helloMs: number;
  functionMs: number;
  ratio: number;
}

function synthesise(): void {
  if (process.env['COLD_SKIP_SYNTH'] === '1') return;
  console.log('Synthesising (cdk synth bundles every function)…');
  // The stack refuses to synthesise without the service's two senders; any pair on different domains bundles the
  // same code, so the measurement names example ones.
  const senders = ['-c', 'systemFromEmail=accounts@example.com', '-c', 'onboardingFromAddress=onboarding@example.net'];
  execFileSync('npx', ['cdk', 'synth', '--quiet', ...senders], { cwd: ROOT, stdio: 'inherit' });
}

/** Every `index.mjs` cdk synth wrote, by its JavaScript (the source map's link left out). */
function synthesisedBundles(): Map<string, string> {
  const out = join(ROOT, 'cdk.out');
  const byCode = new Map<string, string>();
  for (const dir of readdirSync(out).filter((name) => name.startsWith('asset.'))) {
    const file = join(out, dir, 'index.mjs');
    try {
      byCode.set(withoutSourceMapLink(readFileSync(file, 'utf8')), file);
    } catch {
      // Not a function's asset (no index.mjs).
    }
  }
  return byCode;
}

const withoutSourceMapLink = (code: string) => code.replace(/\/\/# sourceMappingURL=index\.mjs\.map\n?$/, '');

async function bundleText(entry: string, scope: BundleScope): Promise<string> {
  const result = await build({
    ...esbuildOptions(entry, join(tmpdir(), 'bench-cold', 'index.mjs'), scope),
    write: false,
  });
  return result.outputFiles![0]!.text;
}

/** Milliseconds for a new Node process to import `file` and exit. */
function coldImport(file: string): number {
  const started = performance.now();
  const out = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)});`],
    {
      env: ENV,
      encoding: 'utf8',
    },
  );
  const elapsed = performance.now() - started;
  if (out.status !== 0) throw new Error(`importing ${file} failed: ${out.stderr.slice(0, 500)}`);
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const kb = (bytes: number) => (bytes / 1024).toFixed(0);

async function main(): Promise<void> {
  synthesise();
  const synthesised = synthesisedBundles();
  const hello = join(mkdtempSync(join(tmpdir(), 'cold-')), 'index.mjs');
  writeFileSync(hello, 'export const handler = async () => ({ statusCode: 200, body: "ok" });\n');
  coldImport(hello); // warms the file system cache

  const rows: Measured[] = [];
  for (const { name, entry } of functionEntries()) {
    const deployed = await bundleText(entry, 'deployed');
    const file = synthesised.get(deployed);
    if (!file)
      throw new Error(
        `${name}: no bundle in cdk.out equals infra/bundling.ts's build of ${entry} (run without COLD_SKIP_SYNTH)`,
      );
    const ownBytes = Buffer.byteLength(await bundleText(entry, 'own-code'));
    coldImport(file);
    const ratios: number[] = [];
    const hellos: number[] = [];
    const functions: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const base = coldImport(hello);
      const time = coldImport(file);
      hellos.push(base);
      functions.push(time);
      ratios.push(time / base);
    }
    const row = {
      name,
      file,
      deployedBytes: Buffer.byteLength(deployed),
      ownBytes,
      helloMs: median(hellos),
      functionMs: median(functions),
      ratio: median(ratios),
    };
    console.log(
      `${kb(row.deployedBytes).padStart(5)} KB  own ${kb(row.ownBytes).padStart(4)} KB  ×${row.ratio.toFixed(2)}  ${name}`,
    );
    rows.push(row);
  }
  rows.sort((a, b) => b.deployedBytes - a.deployedBytes);

  const largest = rows[0]!;
  const health = rows.find((r) => r.name === HEALTH)!;
  const goal = (label: string, r: Measured) =>
    `- ${label}: \`${r.name}\`, ${kb(r.deployedBytes)} KB deployed, ×${r.ratio.toFixed(2)} (${r.functionMs.toFixed(0)} ms against ${r.helloMs.toFixed(0)} ms): ${r.ratio <= BUDGET_RATIO ? 'within' : 'over'} ${BUDGET_RATIO}×.`;
  const table = [
    `| function | deployed bundle (SDK clients included) | own code (without the SDK) | ≤ 250 KB | hello world | function | ratio (median of ${RUNS} pairs) | ≤ ${BUDGET_RATIO}× |`,
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${kb(r.deployedBytes)} KB | ${kb(r.ownBytes)} KB | ${r.ownBytes <= BUDGET_BYTES ? 'yes' : 'no'} | ${r.helloMs.toFixed(0)} ms | ${r.functionMs.toFixed(0)} ms | ${r.ratio.toFixed(2)} | ${r.ratio <= BUDGET_RATIO ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
  const summary = [goal('Health', health), goal('Largest deployed bundle', largest)].join('\n');
  const docPath = join(ROOT, 'docs', 'benchmarks.md');
  const doc = readFileSync(docPath, 'utf8');
  const section = `${START}\n${summary}\n\n${table}\n\nMeasured by \`npm run bench:cold\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}).\n${END}`;
  const next = doc.includes(START)
    ? doc.slice(0, doc.indexOf(START)) + section + doc.slice(doc.indexOf(END) + END.length)
    : `${doc.trimEnd()}\n\n## Cold starts\n\n${section}\n`;
  writeFileSync(docPath, next);
  console.log(`\n${summary}`);
  const over = rows.filter((r) => r.ownBytes > BUDGET_BYTES || r.ratio > BUDGET_RATIO).length;
  console.log(
    `\n${rows.length} functions; ${over} over a budget (own code 250 KB, ${BUDGET_RATIO}×). Table written to docs/benchmarks.md.`,
  );
}

await main();
