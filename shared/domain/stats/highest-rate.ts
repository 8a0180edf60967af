/**
 * The one winner rule of every A/B choice (a journey split's arms, a broadcast's variants): the highest rate — a count
 * per base (human opens per e-mail sent, human clicks per e-mail delivered, …) — wins; compared exactly, by
 * cross-multiplication, never by rounded rates; a candidate with no base has a rate of 0; on a tie, and when nothing
 * was counted at all, the first candidate wins. Answers the winner's index (0 for an empty list is the caller's to
 * avoid).
 */
export function highestRateIndex(candidates: readonly { count: number; base: number }[]): number {
  let best = 0;
  for (let i = 1; i < candidates.length; i++) {
    const t = candidates[i]!;
    const b = candidates[best]!;
    if (t.base <= 0 || t.count <= 0) continue;
    // a/b > c/d ⇔ a·d > c·b for positive bases; a best with no base has a rate of 0, which any positive rate beats.
    if (b.base <= 0 || t.count * b.base > b.count * t.base) best = i;
  }
  return best;
}

/** A rate as shown: the count per base, 4 decimals (0 with no base). */
export const rateOf = (count: number, base: number): number =>
  base > 0 ? Math.round((count / base) * 10_000) / 10_000 : 0;
