import * as z from '../../validation/zod.js';

/**
 * The FAULTS setting: comma-separated `target:kind:rate` entries, e.g.
 * `ses:reset-after-send:0.05,dynamo:throttle:0.05,sqs:send-fail:0.02`. A rate is the probability, 0–1, that one call
 * (SES send, queue send or sendBatch, DynamoDB HTTP attempt) gets that fault; `dynamo:reset-after-write` only
 * affects write attempts (a read drawing it goes through). One draw per call picks at most one fault of its target,
 * so the rates of one target add up to at most 1.
 */
export const FAULT_KINDS = {
  ses: ['reset-after-send', 'timeout-after-send', 'throttle', 'error-5xx-before-send'],
  sqs: ['send-fail', 'throttle'],
  dynamo: ['throttle', 'reset', 'reset-after-write'],
} as const;

export type FaultTarget = keyof typeof FAULT_KINDS;
export type FaultKind<T extends FaultTarget = FaultTarget> = (typeof FAULT_KINDS)[T][number];
export type FaultRule<T extends FaultTarget = FaultTarget> = {
  [K in T]: { target: K; kind: FaultKind<K>; rate: number };
}[T];

const TARGETS = Object.keys(FAULT_KINDS) as FaultTarget[];
const Target = z.enum(TARGETS, { error: () => `unknown target (one of ${TARGETS.join(', ')})` });
const kindOf = (target: FaultTarget) =>
  z.enum(FAULT_KINDS[target], { error: () => `unknown ${target} kind (one of ${FAULT_KINDS[target].join(', ')})` });
const Rate = z.pipe(
  z.string().check(z.regex(/^(?:\d+(?:\.\d*)?|\.\d+)$/, 'rate must be a decimal number')),
  z.pipe(
    z.transform(Number),
    z.number().check(z.gte(0, 'rate must be at least 0'), z.lte(1, 'rate must be at most 1')),
  ),
);

/** A FAULTS value that cannot be used; `problems` names every bad entry, all at once. */
export class FaultSpecError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid FAULTS: ${problems.join('; ')}`);
    this.name = 'FaultSpecError';
  }
}

/** FAULTS → its rules, in the order written; blank → none. Throws FaultSpecError naming each bad entry. */
export function parseFaultSpec(spec: string): FaultRule[] {
  const rules: FaultRule[] = [];
  const problems: string[] = [];
  for (const entry of spec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const parsed = parseEntry(entry);
    if (typeof parsed === 'string') problems.push(`"${entry}": ${parsed}`);
    else if (rules.some((r) => r.target === parsed.target && r.kind === parsed.kind))
      problems.push(`"${entry}": listed twice`);
    else rules.push(parsed);
  }
  for (const target of TARGETS) {
    const sum = rules.filter((r) => r.target === target).reduce((total, r) => total + r.rate, 0);
    // One draw per call picks at most one fault: the rates of a target share the interval [0, 1).
    if (sum > 1 + 1e-9) problems.push(`the ${target} rates add up to ${sum}, more than 1`);
  }
  if (problems.length) throw new FaultSpecError(problems);
  return rules;
}

/** One `target:kind:rate` entry → its rule, or what is wrong with it. */
function parseEntry(entry: string): FaultRule | string {
  const parts = entry.split(':').map((p) => p.trim());
  if (parts.length !== 3) return 'expected target:kind:rate';
  const [targetText, kindText, rateText] = parts as [string, string, string];
  const target = Target.safeParse(targetText);
  if (!target.success) return target.error.issues[0]?.message ?? 'unknown target';
  const kind = kindOf(target.data).safeParse(kindText);
  const rate = Rate.safeParse(rateText);
  const issues = [...(kind.error?.issues ?? []), ...(rate.error?.issues ?? [])].map((i) => i.message);
  if (issues.length || !kind.success || !rate.success) return issues.join(', ');
  return { target: target.data, kind: kind.data, rate: rate.data } as FaultRule;
}

/** Rules → the FAULTS text that produces them (the start line, replay instructions). */
export function formatFaultSpec(rules: readonly FaultRule[]): string {
  return rules.map((r) => `${r.target}:${r.kind}:${r.rate}`).join(',');
}
