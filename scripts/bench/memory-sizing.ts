/**
 * The arithmetic of choosing a Lambda function's memory from measurement (the cost bench's sizing pass,
 * scripts/bench/cost.ts), pure and unit-tested. Lambda gives a function CPU in proportion to its memory — one vCPU at
 * 1,769 MB ("Configuring Lambda function memory") — so a warm invocation that spends `cpuMs` computing and `waitMs`
 * waiting on DynamoDB, SQS or SES takes `waitMs + cpuMs / share` at a memory whose share of a vCPU is `share`. The
 * inputs are measured on this machine (an invocation's CPU time and its wall time, running alone); the cold start is
 * measured under a CPU quota of each size's share (scripts/bench/cpu-quota.ts) where the machine allows it.
 */
import { gbSeconds } from './cost-model.js';
import { costOf, PRICES } from './prices.js';

export const MB_PER_VCPU = 1769;
/** The sizes compared. */
export const MEMORY_SIZES = [256, 512, 1024] as const;
/** A size whose cold start (a new process importing the deployed bundle) takes longer is not chosen. */
export const COLD_LIMIT_MS = 1_000;
/** An HTTP function answers a client: a size whose warm invocation takes longer is not chosen for one. */
export const HTTP_WARM_LIMIT_MS = 150;
/**
 * The sender's mapping is sized for a send of FASTEST_SEND_SECONDS (150 ms, functions/queue-sizing.ts): its CPU time
 * at a size may take at most a fifth of that, or the sender falls short of the SES rate it is sized for.
 */
export const SENDER_CPU_LIMIT_MS = 30;

/** The share of a vCPU Lambda gives `memoryMb` (at most one: a single-threaded handler uses no more). */
export const cpuShare = (memoryMb: number): number => Math.min(1, memoryMb / MB_PER_VCPU);

/** A warm invocation's duration at `memoryMb`: its waits as measured, its CPU time stretched by the share. */
export const warmDuration = (cpuMs: number, waitMs: number, memoryMb: number): number =>
  waitMs + cpuMs / cpuShare(memoryMb);

/** One function's invocations that ran alone during the sizing pass (sums). */
export interface SoloUse {
  invocations: number;
  wallMs: number;
  cpuMs: number;
}

export interface SizeOption {
  memoryMb: number;
  warmMs: number;
  /** GB-seconds and their price per 1,000 e-mails, at the function's invocations per e-mail. */
  gbSecondsPer1000: number;
  usdPer1000: number;
  /** A new process importing the bundle under this size's CPU share; undefined: not measured. */
  coldMs: number | undefined;
  /** Why the size may not be chosen, if it may not. */
  excluded?: string;
}

export interface SizedFunction {
  fn: string;
  http: boolean;
  sender: boolean;
  currentMb: number;
  invocationsPerEmail: number;
  samples: number;
  /** The samples ran beside other invocations: their process CPU time is an upper bound of the function's. */
  overlapped: boolean;
  cpuMs: number;
  waitMs: number;
  options: SizeOption[];
  /** The cheapest size allowed. */
  chosenMb: number;
}

/**
 * Each size's warm duration, GB-seconds and cost per 1,000 e-mails; the chosen size is the cheapest whose cold start
 * is within COLD_LIMIT_MS and, for an HTTP function, whose warm invocation is within HTTP_WARM_LIMIT_MS, for the
 * sender whose CPU time a send is within SENDER_CPU_LIMIT_MS (of equal cost, the larger: it is the faster). If no size
 * is allowed, the largest.
 */
export function sizeFunction(input: {
  fn: string;
  http: boolean;
  /** The lifecycle sender (execute-workflow): its duration sets the rate its mapping is sized for. */
  sender?: boolean;
  currentMb: number;
  invocationsPerEmail: number;
  solo: SoloUse;
  overlapped?: boolean;
  coldMs: (memoryMb: number) => number | undefined;
}): SizedFunction {
  const n = Math.max(1, input.solo.invocations);
  const cpuMs = input.solo.cpuMs / n;
  const waitMs = Math.max(0, input.solo.wallMs / n - cpuMs);
  const options = MEMORY_SIZES.map((memoryMb): SizeOption => {
    const warmMs = warmDuration(cpuMs, waitMs, memoryMb);
    const gbs = gbSeconds(warmMs, memoryMb) * input.invocationsPerEmail * 1000;
    const coldMs = input.coldMs(memoryMb);
    const excluded =
      coldMs !== undefined && coldMs > COLD_LIMIT_MS
        ? `cold start ${Math.round(coldMs)} ms > ${COLD_LIMIT_MS} ms`
        : input.http && warmMs > HTTP_WARM_LIMIT_MS
          ? `warm ${Math.round(warmMs)} ms > ${HTTP_WARM_LIMIT_MS} ms for an HTTP answer`
          : input.sender && cpuMs / cpuShare(memoryMb) > SENDER_CPU_LIMIT_MS
            ? `CPU ${Math.round(cpuMs / cpuShare(memoryMb))} ms a send > ${SENDER_CPU_LIMIT_MS} ms: below the SES rate it is sized for`
            : undefined;
    return {
      memoryMb,
      warmMs,
      gbSecondsPer1000: gbs,
      usdPer1000: costOf(gbs, PRICES.lambdaArmGbSecond),
      coldMs,
      ...(excluded ? { excluded } : {}),
    };
  });
  const allowed = options.filter((o) => o.excluded === undefined);
  const chosen = allowed.length
    ? allowed.reduce((best, o) => (o.usdPer1000 <= best.usdPer1000 ? o : best))
    : options[options.length - 1]!;
  return {
    fn: input.fn,
    http: input.http,
    sender: input.sender === true,
    currentMb: input.currentMb,
    invocationsPerEmail: input.invocationsPerEmail,
    samples: input.solo.invocations,
    overlapped: input.overlapped === true,
    cpuMs,
    waitMs,
    options,
    chosenMb: chosen.memoryMb,
  };
}
