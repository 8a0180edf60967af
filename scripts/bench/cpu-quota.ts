import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs a process under a CPU quota, as Lambda runs a function under its memory's share of a vCPU: a cgroup of its own
 * with the CFS bandwidth limit `share × period` per period (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us`). Needs a
 * writable cpu controller (root on a machine with cgroups mounted); `cpuQuotaRunner` answers undefined otherwise, and
 * the caller says that the figure was not measured.
 */
export interface CpuQuotaRunner {
  /** Which cgroup interface limits the CPU. */
  kind: 'v1' | 'v2';
  /** Milliseconds from spawning `command` under `share` of one CPU until it exits (it must exit 0). */
  time(share: number, command: string, args: readonly string[], env: NodeJS.ProcessEnv): number;
}

const PERIOD_US = 100_000;

export function cpuQuotaRunner(): CpuQuotaRunner | undefined {
  const v2 = '/sys/fs/cgroup';
  const v1 = '/sys/fs/cgroup/cpu';
  const layout = existsSync(join(v1, 'cpu.cfs_quota_us'))
    ? { kind: 'v1' as const, root: v1 }
    : existsSync(join(v2, 'cgroup.controllers')) && readFileSync(join(v2, 'cgroup.controllers'), 'utf8').includes('cpu')
      ? { kind: 'v2' as const, root: v2 }
      : undefined;
  if (!layout) return undefined;
  const probe = join(layout.root, `bench-cpu-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
  } catch {
    return undefined;
  }
  return {
    kind: layout.kind,
    time(share, command, args, env) {
      const group = join(layout.root, `bench-cpu-${process.pid}-${Math.round(share * 1000)}`);
      mkdirSync(group, { recursive: true });
      try {
        const quota = Math.max(1_000, Math.round(share * PERIOD_US));
        if (layout.kind === 'v1') {
          writeFileSync(join(group, 'cpu.cfs_period_us'), String(PERIOD_US));
          writeFileSync(join(group, 'cpu.cfs_quota_us'), String(quota));
        } else writeFileSync(join(group, 'cpu.max'), `${quota} ${PERIOD_US}`);
        // The shell joins the group, then becomes the command: only the command runs under the quota.
        const started = performance.now();
        const out = spawnSync(
          '/bin/sh',
          ['-c', `echo $$ > ${JSON.stringify(join(group, 'cgroup.procs'))} && exec "$0" "$@"`, command, ...args],
          { env, encoding: 'utf8' },
        );
        const elapsed = performance.now() - started;
        if (out.status !== 0) throw new Error(`${command} under a CPU quota failed: ${out.stderr.slice(0, 500)}`);
        return elapsed;
      } finally {
        rmdirSync(group);
      }
    },
  };
}
