import type { Mailer, Queue } from '../../platform.js';
import { installDynamoFaults, type DynamoClientLike, type DynamoFaultKind } from './dynamo-faults.js';
import { FaultDice, type FaultCounts } from './fault-dice.js';
import { formatFaultSpec, parseFaultSpec, type FaultKind, type FaultRule, type FaultTarget } from './fault-spec.js';
import { FaultyMailer, type SesFaultKind } from './faulty-mailer.js';
import { FaultyQueue, type SqsFaultKind } from './faulty-queue.js';
import { resolveFaultSeed, seededRandom, streamSeed } from './seeded-random.js';

/** FAULTS and FAULTS_SEED, as the environment or a test gives them. */
export interface FaultSettings {
  /** `target:kind:rate,…` (fault-spec.ts). */
  spec: string;
  /** 0–4294967295; absent → random (printed by `describe`, so the run can be replayed). */
  seed?: number | string;
}

export function faultSettingsFromEnv(env: NodeJS.ProcessEnv): FaultSettings | undefined {
  const spec = env['FAULTS']?.trim();
  return spec ? { spec, seed: env['FAULTS_SEED'] } : undefined;
}

/** Counts of the targets that have rules. */
export interface FaultInjectionCounts {
  ses?: FaultCounts<SesFaultKind>;
  sqs?: FaultCounts<SqsFaultKind>;
  dynamo?: FaultCounts<DynamoFaultKind>;
}

/**
 * One run's faults: the parsed rules, the seed, and one dice per target (each on its own seeded stream). Wraps the
 * ports it is given and keeps their counts; a target without rules is left unwrapped.
 */
export class FaultInjection {
  readonly rules: readonly FaultRule[];
  readonly seed: number;
  private readonly ses: FaultDice<SesFaultKind>;
  private readonly sqs: FaultDice<SqsFaultKind>;
  private readonly dynamoDice: FaultDice<DynamoFaultKind>;

  constructor(settings: FaultSettings) {
    this.rules = parseFaultSpec(settings.spec);
    this.seed = resolveFaultSeed(settings.seed);
    this.ses = new FaultDice(this.rulesOf('ses'), seededRandom(streamSeed(this.seed, 'ses')));
    this.sqs = new FaultDice(this.rulesOf('sqs'), seededRandom(streamSeed(this.seed, 'sqs')));
    this.dynamoDice = new FaultDice(this.rulesOf('dynamo'), seededRandom(streamSeed(this.seed, 'dynamo')));
  }

  mailer(inner: Mailer): Mailer {
    return this.has('ses') ? new FaultyMailer(inner, this.ses) : inner;
  }

  queue(inner: Queue): Queue {
    return this.has('sqs') ? new FaultyQueue(inner, this.sqs) : inner;
  }

  /** Wraps the client's HTTP handler; call before its first request. */
  dynamo(client: DynamoClientLike): void {
    if (this.has('dynamo')) installDynamoFaults(client, this.dynamoDice);
  }

  counts(): FaultInjectionCounts {
    return {
      ...(this.has('ses') ? { ses: this.ses.counts() } : {}),
      ...(this.has('sqs') ? { sqs: this.sqs.counts() } : {}),
      ...(this.has('dynamo') ? { dynamo: this.dynamoDice.counts() } : {}),
    };
  }

  /** The start line: the active faults and the seed that replays them. */
  describe(): string {
    return `Fault injection: FAULTS=${formatFaultSpec(this.rules)} FAULTS_SEED=${this.seed}`;
  }

  private has(target: FaultTarget): boolean {
    return this.rules.some((r) => r.target === target);
  }

  private rulesOf<T extends FaultTarget>(target: T): { kind: FaultKind<T>; rate: number }[] {
    return this.rules
      .filter((r) => r.target === target)
      .map(({ kind, rate }) => ({ kind: kind as FaultKind<T>, rate }));
  }
}

export const createFaultInjection = (settings: FaultSettings): FaultInjection => new FaultInjection(settings);
