import { describe, expect, it } from 'vitest';
import {
  COLD_LIMIT_MS,
  cpuShare,
  HTTP_WARM_LIMIT_MS,
  SENDER_CPU_LIMIT_MS,
  sizeFunction,
  warmDuration,
} from '../../../../scripts/bench/memory-sizing.js';

describe('memory sizing (CPU in proportion to memory, one vCPU at 1,769 MB)', () => {
  it("stretches an invocation's CPU time by the size's share of a vCPU and keeps its waits", () => {
    expect(cpuShare(1769)).toBe(1);
    expect(cpuShare(3538)).toBe(1);
    expect(cpuShare(512)).toBeCloseTo(0.2894, 4);
    expect(warmDuration(10, 20, 1769)).toBe(30);
    expect(warmDuration(10, 20, 256)).toBeCloseTo(20 + 10 / (256 / 1769), 6);
  });

  it('chooses the smallest size for a function that mostly waits: it pays for memory, not for CPU it lacks', () => {
    // Prepare: 2 ms of CPU and 30 ms of waiting an invocation, one invocation an e-mail
    const sized = sizeFunction({
      fn: 'workflow queue -> execute-workflow',
      http: false,
      currentMb: 512,
      invocationsPerEmail: 1,
      solo: { invocations: 10, wallMs: 320, cpuMs: 20 },
      coldMs: () => 300,
    });

    // Assess
    expect(sized.cpuMs).toBe(2);
    expect(sized.waitMs).toBe(30);
    expect(sized.chosenMb).toBe(256);
    const [small, , large] = sized.options;
    expect(small!.usdPer1000).toBeLessThan(large!.usdPer1000);
  });

  it('keeps a CPU-bound HTTP function off a size whose answer would be too slow', () => {
    // Prepare: 40 ms of CPU, nothing to wait for
    const sized = sizeFunction({
      fn: 'POST /api/v1/client/contacts/bulk',
      http: true,
      currentMb: 1024,
      invocationsPerEmail: 1,
      solo: { invocations: 4, wallMs: 160, cpuMs: 160 },
      coldMs: () => undefined,
    });

    // Assess: at 256 MB its answer takes 276 ms, over the HTTP limit; at 512 and 1,024 MB the same CPU work costs the
    // same GB-s but for Lambda's rounding to the millisecond, and the cheaper of the two is chosen
    expect(sized.options[0]!.excluded).toContain(`> ${HTTP_WARM_LIMIT_MS} ms`);
    const [, middle, large] = sized.options;
    expect(middle!.gbSecondsPer1000 / large!.gbSecondsPer1000).toBeCloseTo(1, 1);
    expect(sized.chosenMb).toBe(middle!.usdPer1000 <= large!.usdPer1000 ? 512 : 1024);
  });

  it('keeps the sender on a size where its CPU time a send leaves the rate its mapping is sized for', () => {
    // Prepare: 6 ms of CPU a send (41 ms at 256 MB, 21 ms at 512 MB) and 20 ms of waiting
    const sized = sizeFunction({
      fn: 'workflow queue -> execute-workflow',
      http: false,
      sender: true,
      currentMb: 512,
      invocationsPerEmail: 1,
      solo: { invocations: 10, wallMs: 260, cpuMs: 60 },
      coldMs: () => 300,
    });

    // Assess
    expect(sized.options[0]!.excluded).toContain(`> ${SENDER_CPU_LIMIT_MS} ms`);
    expect(sized.chosenMb).toBe(512);
  });

  it('does not choose a size whose cold start is over the limit, and falls back to the largest if none is allowed', () => {
    // Prepare
    const slowCold = (memoryMb: number) => (memoryMb < 1024 ? COLD_LIMIT_MS + 1 : 400);
    const none = () => COLD_LIMIT_MS + 1;
    const base = {
      fn: 'ses-status queue -> ses-status',
      http: false,
      currentMb: 512,
      invocationsPerEmail: 2,
      solo: { invocations: 10, wallMs: 100, cpuMs: 10 },
    };

    // Act / Assess
    const sized = sizeFunction({ ...base, coldMs: slowCold });
    expect(sized.options.filter((o) => o.excluded).map((o) => o.memoryMb)).toEqual([256, 512]);
    expect(sized.chosenMb).toBe(1024);
    expect(sizeFunction({ ...base, coldMs: none }).chosenMb).toBe(1024);
  });
});
