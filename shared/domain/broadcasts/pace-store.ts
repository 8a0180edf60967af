/** Whose pace clock: the whole account's (every client's broadcasts share SES's rate) or one client's. */
export type PaceOwner = number | 'all';

/** The clock's state when a conditional move failed: its `tat` (epoch ms) as it is now. */
export type PaceMove = { moved: true } | { moved: false; tat: number };

/**
 * The pace clocks (GCRA): each holds `tat`, the instant up to which its budget of sends is reserved. One conditional
 * write moves a clock; nothing is read first.
 */
export interface PaceStore {
  /**
   * Sets the clock's `tat` to `to` when it is `expected` — or, with `expected` undefined, when it is unset or not
   * after `now` (idle). A failed condition answers the clock's `tat` as it is (ReturnValuesOnConditionCheckFailure).
   */
  advance(owner: PaceOwner, expected: number | undefined, to: number, now: number): Promise<PaceMove>;
}
