import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions } from '../../infra/bundling.js';
import { entryOf } from '../../infra/node-function.js';
import { routes } from '../../functions/routes.js';
import { fullPath } from '../../shared/http/route-definition.js';
import type { CpuQuotaRunner } from './cpu-quota.js';
import { cpuShare } from './memory-sizing.js';

/**
 * A function's cold start at each memory size: a new Node process importing its deployed bundle (built as
 * infra/bundling.ts builds it for `cdk synth`, as `npm run bench:cold` does) under that size's share of a CPU
 * (cpu-quota.ts), the median of `runs`. The process starts with a clean environment, as cold.ts explains.
 */
const ENV = { PATH: process.env['PATH'] ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

/** The entry file of a function the cost bench names (`POST /api/v1/client/events`, `workflow queue -> …`). */
export function entryOfFunction(fn: string): string | undefined {
  const queue = /^\S+ queue -> (.+)$/.exec(fn);
  if (queue) return entryOf('queue', queue[1]!);
  const stream = /^table stream -> (.+)$/.exec(fn);
  if (stream) return entryOf('stream', stream[1]!);
  const route = routes.find((r) => `${r.method} ${fullPath(r)}` === fn);
  return route ? entryOf('http', route.handler) : undefined;
}

export async function coldTimes(
  runner: CpuQuotaRunner,
  fn: string,
  sizes: readonly number[],
  runs: number,
): Promise<Map<number, number>> {
  const entry = entryOfFunction(fn);
  if (!entry) throw new Error(`cold start: no entry file for ${fn}`);
  const dir = mkdtempSync(join(tmpdir(), 'cold-quota-'));
  const file = join(dir, 'index.mjs');
  const built = await build({ ...esbuildOptions(entry, file, 'deployed'), write: false });
  writeFileSync(file, built.outputFiles![0]!.text);
  const args = ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)});`];
  // Once unmeasured: the file system cache holds the bundle and Node's own files.
  runner.time(1, process.execPath, args, ENV);
  const times = new Map<number, number>();
  for (const memoryMb of sizes) {
    const samples = Array.from({ length: runs }, () => runner.time(cpuShare(memoryMb), process.execPath, args, ENV));
    times.set(memoryMb, samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!);
  }
  return times;
}
