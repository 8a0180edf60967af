import { describe, expect, it } from 'vitest';
import { cpuBetween, cpuTicksOfStat, processCpuSeconds, sampleCpu } from '../../../../scripts/bench/cpu-usage.js';
import type { EngineRun } from '../../../../scripts/bench/engine.js';
import { engineCpuFigures } from '../../../../scripts/bench/engine-report.js';

describe('CPU time of the bench processes', () => {
  it('reads utime + stime from a stat line whose command name holds spaces and parentheses', () => {
    const stat = '4242 (java (dyn) local) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 31 0 500 0 0';
    expect(cpuTicksOfStat(stat)).toBe(300);
  });

  it('answers undefined for a line it cannot read', () => {
    expect(cpuTicksOfStat('no parentheses here')).toBeUndefined();
    expect(cpuTicksOfStat('1 (x) S 1')).toBeUndefined();
  });

  it("reads a live process's CPU seconds and nothing for one that does not exist", () => {
    const own = processCpuSeconds(process.pid);
    if (process.platform === 'linux') expect(own).toBeGreaterThan(0);
    expect(processCpuSeconds(2 ** 31 - 1)).toBeUndefined();
  });

  it('spends what happened between two samples, and nothing when the JVM could not be read', () => {
    const start = { node: 1, jvm: 10, at: 1_000 };
    expect(cpuBetween(start, { node: 1.5, jvm: 12, at: 3_000 })).toEqual({ node: 0.5, jvm: 2, wallSeconds: 2 });
    expect(cpuBetween(start, { node: 2, jvm: undefined, at: 2_000 })).toBeUndefined();
    const sample = sampleCpu(undefined);
    expect(sample.jvm).toBeUndefined();
    expect(sample.node).toBeGreaterThan(0);
  });
});

const queue = { redeliveries: 0 };
const run = (over: Partial<EngineRun>): EngineRun =>
  ({
    mails: 1_000,
    endToEndMs: 50_000,
    processing: { queue },
    execution: { queue },
    notifications: { queue },
    cpu: { node: 40, jvm: 44, wallSeconds: 50, cores: 2 },
    floor: {
      requests: 15_000,
      units: 6_000,
      seededItems: 2_000,
      runs: [],
      best: { concurrency: 16, ms: 25_000, failed: 0, cpu: { node: 10, jvm: 40, wallSeconds: 25 } },
    },
    ...over,
  }) as unknown as EngineRun;

describe("the engine's CPU against its floor", () => {
  it('bounds the engine by the cores over the CPU it spends per e-mail, and says what the goal would allow', () => {
    const c = engineCpuFigures(run({}))!;
    expect(c.engine).toEqual({ nodeMs: 40, jvmMs: 44, busy: 84 / 100 });
    expect(c.floor).toEqual({ nodeMs: 10, jvmMs: 40, busy: 1 });
    expect(c.engineMs).toBe(84);
    expect(c.floorMs).toBe(50);
    // 2 cores at 0.9 × 40 e-mails/s: 2 / 36 s of CPU per e-mail.
    expect(c.allowedMs).toBeCloseTo(55.56, 2);
    // 2 cores / 84 ms = 23.8 e-mails/s at most, against a floor of 40/s.
    expect(c.ceilingRatio).toBeCloseTo(0.595, 3);
  });

  it('has no figures without both CPU readings', () => {
    expect(engineCpuFigures(run({ cpu: undefined }))).toBeUndefined();
    const floor = run({}).floor!;
    expect(engineCpuFigures(run({ floor: { ...floor, best: { ...floor.best, cpu: undefined } } }))).toBeUndefined();
  });
});
