import type { Clock } from '../../platform.js';
import { decideSplitWinner, type SplitWinner } from './split-winner.js';
import type { SplitWinnerStore } from './split-winner-store.js';

export interface DecideSplitsDeps {
  splitWinners: SplitWinnerStore;
  clock: Clock;
}

/** Reads again after a publish moved the index between the read and the write. */
const MAX_ATTEMPTS = 3;

/**
 * Decides the winners of a journey's splits whose counters just moved (the day-counters projection calls it after a
 * batch that changed a split arm's totals). Reads the index and the gauge (one request); for each split of the live
 * version with a winner rule and none decided, applies the rule (decideSplitWinner); writes the new winners once, on
 * the index entry and the journey, in one transaction conditioned on the index version read. A decided winner is
 * never changed. Answers the winners decided now.
 *
 * Requests: 1 BatchGetItem; + 1 TransactWriteItems when a winner is decided (at most once per split).
 */
export async function decideSplitWinners(
  deps: DecideSplitsDeps,
  clientId: number,
  journeyId: number,
): Promise<Record<string, SplitWinner>> {
  for (let attempt = 1; ; attempt += 1) {
    const { index, gauge } = await deps.splitWinners.readSplits(clientId, journeyId);
    const position = index.journeys.findIndex((j) => j.id === journeyId);
    const entry = index.journeys[position];
    if (!entry?.split_rules) return {};
    const now = deps.clock.now();
    const decided: Record<string, SplitWinner> = {};
    for (const [split, rule] of Object.entries(entry.split_rules)) {
      if (entry.split_winners?.[split]) continue;
      const winner = decideSplitWinner(rule, split, gauge, now);
      if (winner) decided[split] = winner;
    }
    if (Object.keys(decided).length === 0) return {};
    const written = await deps.splitWinners.writeWinners({
      clientId,
      journeyId,
      readVersion: index.version,
      position,
      winners: { ...entry.split_winners, ...decided },
    });
    if (written === 'written') return decided;
    if (attempt >= MAX_ATTEMPTS)
      throw new Error(`journey ${journeyId}: its index kept changing while a winner was written`);
  }
}
