import type { StepId } from './definition/types.js';
import type { JourneyIndex } from './journey-records.js';
import type { SplitWinner } from './split-winner.js';

/** A journey's decided winners, written on its index entry and on the journey in one transaction. */
export interface SplitWinnersWrite {
  clientId: number;
  journeyId: number;
  /** The index version read: the write holds only while the index is still at it (a publish meanwhile: `stale`). */
  readVersion: number;
  /** The journey's place in the index's list as read. */
  position: number;
  /** Every winner of the journey: those decided before and the new ones (never a change to a decided one). */
  winners: Record<StepId, SplitWinner>;
}

/** What deciding a journey's split winners reads and writes. */
export interface SplitWinnerStore {
  /** The client's journey index and the journey's gauge (its `x_` split totals and the rest), in one read. */
  readSplits(clientId: number, journeyId: number): Promise<{ index: JourneyIndex; gauge: Record<string, number> }>;
  /**
   * Sets the journey's winners on its index entry (if the index is still at `readVersion`, raising it, so a publish
   * that read it before writes nothing over them) and on the journey record. `stale`: the index moved; nothing written.
   */
  writeWinners(write: SplitWinnersWrite): Promise<'written' | 'stale'>;
}
