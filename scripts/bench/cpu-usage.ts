import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * CPU time of the two processes an engine run loads on this machine: this Node.js process (the API, the queue and
 * stream functions, the SES emulator, the bench's HTTP client) and DynamoDB Local's JVM. Wall time alone cannot say
 * whether the engine waits on the emulator or the two fight for the same cores; their CPU seconds can.
 */
export interface CpuSample {
  /** This process: user + system seconds (process.cpuUsage, every thread). */
  node: number;
  /** The JVM: user + system seconds of every thread (/proc/<pid>/stat); undefined where /proc cannot be read. */
  jvm: number | undefined;
  /** performance.now() when taken. */
  at: number;
}

/** CPU seconds spent between two samples, and the wall seconds between them. */
export interface CpuSpent {
  node: number;
  jvm: number;
  wallSeconds: number;
}

/** Reads the CPU seconds of this process and of `jvmPid` now. */
export function sampleCpu(jvmPid: number | undefined): CpuSample {
  const { user, system } = process.cpuUsage();
  return {
    node: (user + system) / 1e6,
    jvm: jvmPid === undefined ? undefined : processCpuSeconds(jvmPid),
    at: performance.now(),
  };
}

/** What was spent from `start` to `end`; undefined when the JVM's CPU could not be read at either end. */
export function cpuBetween(start: CpuSample, end: CpuSample): CpuSpent | undefined {
  if (start.jvm === undefined || end.jvm === undefined) return undefined;
  return { node: end.node - start.node, jvm: end.jvm - start.jvm, wallSeconds: (end.at - start.at) / 1000 };
}

/** The cores the processes share: what the two can burn at most per wall second. */
export const machineCores = (): number => availableParallelism();

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on every Linux build this runs on). */
let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** A process's user + system CPU seconds, all threads, from /proc/<pid>/stat; undefined off Linux or once it ended. */
export function processCpuSeconds(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const ticks = cpuTicksOfStat(stat);
  return ticks === undefined ? undefined : ticks / clockTicks();
}

/**
 * utime + stime (fields 14 and 15) of a /proc/<pid>/stat line. The command name (field 2) is in parentheses and may
 * itself hold spaces and parentheses, so the fields are counted from the last `)`.
 */
export function cpuTicksOfStat(stat: string): number | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  // After the name: field 3 (state) is the first, so utime (14) is the 12th and stime (15) the 13th.
  const fields = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? utime + stime : undefined;
}
