import fc from 'fast-check';

/** The fuzz runs' base seed: the same requests every time, so a failure replays exactly. */
export const FUZZ_SEED = 424_242;

/**
 * `fc.assert` with the fixed seed, but reporting only the failing request (our assertion's message cuts long
 * values): fast-check's own report would print 450 000-character counterexamples in full.
 */
export async function assertProperty<T>(
  property: fc.IAsyncProperty<T>,
  run: { numRuns: number; seedOffset: number },
): Promise<void> {
  // One seed per route (base + offset): the same seed everywhere would send every route the same sequence.
  const { numRuns } = run;
  const details = await fc.check(property, { seed: FUZZ_SEED + run.seedOffset, numRuns });
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `failed on run ${details.numRuns} of ${numRuns} (seed ${details.seed}, path "${details.counterexamplePath}", ` +
      `${details.numShrinks} shrinks); smallest failing request:\n${cause}`,
  );
}
