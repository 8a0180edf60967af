import type { JourneyIndex } from '../../domain/journeys/journey-records.js';
import type { SplitWinnersWrite, SplitWinnerStore } from '../../domain/journeys/split-winner-store.js';
import type { MemoryJourneyStore } from './journey-store.js';
import type { MemoryStatsStore } from './stats-store.js';

/** Split winners over the memory journeys and counters, with the DynamoDB adapter's conditions. */
export class MemorySplitWinnerStore implements SplitWinnerStore {
  /** Writes made, in order (tests). */
  readonly writes: SplitWinnersWrite[] = [];

  constructor(
    private readonly journeys: MemoryJourneyStore,
    private readonly stats: MemoryStatsStore,
  ) {}

  async readSplits(clientId: number, journeyId: number) {
    const index: JourneyIndex = this.journeys.indexOf(clientId) ?? { version: 0, journeys: [] };
    const gauge = { ...(this.stats.journeyRows.get(`${clientId}#NOW#J${journeyId}`) ?? {}) };
    return { index, gauge };
  }

  async writeWinners(write: SplitWinnersWrite): Promise<'written' | 'stale'> {
    const index = this.journeys.indexes.get(write.clientId);
    const entry = index?.journeys[write.position];
    const head = [...this.journeys.heads.values()].find(
      (j) => j.client_id === write.clientId && j.id === write.journeyId,
    );
    if (!index || index.version !== write.readVersion || entry?.id !== write.journeyId) return 'stale';
    if (!head) throw new Error(`journey ${write.journeyId} does not exist`);
    entry.split_winners = structuredClone(write.winners);
    index.version += 1;
    head.split_winners = structuredClone(write.winners);
    this.writes.push(structuredClone(write));
    return 'written';
  }
}
