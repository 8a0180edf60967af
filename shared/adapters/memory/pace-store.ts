import type { PaceMove, PaceOwner, PaceStore } from '../../domain/broadcasts/pace-store.js';

/** The pace clocks in memory, with DynamoDB's conditional-write semantics (tests, and the local stand-in). */
export class MemoryPaceStore implements PaceStore {
  readonly clocks = new Map<PaceOwner, number>();
  /** Conditional writes asked for, as DynamoDB would count them. */
  writes = 0;

  async advance(owner: PaceOwner, expected: number | undefined, to: number, now: number): Promise<PaceMove> {
    this.writes += 1;
    const tat = this.clocks.get(owner);
    const holds = expected === undefined ? tat === undefined || tat <= now : tat === expected;
    if (!holds) return { moved: false, tat: tat ?? 0 };
    this.clocks.set(owner, to);
    return { moved: true };
  }
}
