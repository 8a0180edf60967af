import { FIRST_CLIENT_JOURNEY_ID } from '../../public/journey-rules.js';
import type {
  JourneyDraft,
  JourneyIndex,
  JourneyRecord,
  JourneyVersionRecord,
} from '../../domain/journeys/journey-records.js';
import {
  EMPTY_INDEX,
  type IndexChange,
  type JourneyCount,
  type JourneyStore,
  type JourneySummary,
  type JourneyVersionSummary,
  type PublishWrite,
  type StatusWrite,
  type WriteOutcome,
} from '../../domain/journeys/journey-store.js';
import type { MemoryJourneyReads } from './engine-data.js';
import type { MemorySettingsStore } from './settings-store.js';
import { MemoryWorkflowData, recordKey } from './workflow-data.js';

const copy = <T>(value: T): T => structuredClone(value);

interface MemoryCount {
  n: number;
  next_id: number;
  summaries: Map<number, JourneySummary>;
}

const summaryOf = (journey: JourneyRecord): JourneySummary => ({
  id: journey.id,
  name: journey.name,
  ...(journey.description ? { description: journey.description } : {}),
  status: journey.status,
  ...(journey.live_version !== undefined ? { live_version: journey.live_version } : {}),
  updated_at: journey.updated_at,
});

/**
 * JourneyStore in memory, with the DynamoDB adapter's contract: each write checks every condition before changing
 * anything (all or nothing, as a transaction), the count item's `n` and summaries move with the journeys, the index
 * is replaced whole when still at the version read. It also serves the engine's memory stores their reads of the
 * index and the versions (MemoryJourneyReads), and the template store its check of the templates journeys use.
 */
export class MemoryJourneyStore implements JourneyStore, MemoryJourneyReads {
  readonly heads = new Map<string, JourneyRecord>();
  readonly versionsByKey = new Map<string, JourneyVersionRecord>();
  readonly indexes = new Map<number, JourneyIndex>();
  readonly counts = new Map<number, MemoryCount>();

  constructor(
    private readonly workflowData: MemoryWorkflowData = new MemoryWorkflowData(),
    private readonly settings?: MemorySettingsStore,
    /** Whether a segment exists: the segment store, created after this one (memory-stores.ts). */
    private readonly segmentExists?: (clientId: number, segmentId: number) => boolean,
  ) {}

  indexOf(clientId: number): JourneyIndex | undefined {
    const index = this.indexes.get(clientId);
    return index && copy(index);
  }

  versionOf(clientId: number, journeyId: number, version: number): JourneyVersionRecord | undefined {
    const found = this.versionsByKey.get(versionKey(clientId, journeyId, version));
    return found && copy(found);
  }

  async get(clientId: number, journeyId: number): Promise<JourneyRecord | undefined> {
    const found = this.heads.get(recordKey(clientId, journeyId));
    return found && copy(found);
  }

  async getWithIndex(clientId: number, journeyId: number): Promise<{ journey?: JourneyRecord; index: JourneyIndex }> {
    const journey = await this.get(clientId, journeyId);
    return { ...(journey ? { journey } : {}), index: await this.index(clientId) };
  }

  async index(clientId: number): Promise<JourneyIndex> {
    return this.indexOf(clientId) ?? copy(EMPTY_INDEX);
  }

  async list(clientId: number): Promise<JourneyCount> {
    const count = this.counts.get(clientId);
    return {
      n: count?.n ?? 0,
      next_id: count?.next_id ?? FIRST_CLIENT_JOURNEY_ID,
      journeys: [...(count?.summaries.values() ?? [])].sort((a, b) => a.id - b.id).map(copy),
    };
  }

  async version(clientId: number, journeyId: number, version: number): Promise<JourneyVersionRecord | undefined> {
    return this.versionOf(clientId, journeyId, version);
  }

  async versions(clientId: number, journeyId: number): Promise<JourneyVersionSummary[]> {
    return [...this.versionsByKey.values()]
      .filter((v) => v.client_id === clientId && v.journey_id === journeyId)
      .sort((a, b) => b.version - a.version)
      .map((v) => ({
        version: v.version,
        published_at: v.published_at,
        ...(v.published_by !== undefined ? { published_by: v.published_by } : {}),
      }));
  }

  async create(
    clientId: number,
    journey: Omit<JourneyRecord, 'id' | 'client_id'>,
    max: number,
  ): Promise<JourneyRecord | 'limit'> {
    const count = this.countOf(clientId);
    if (count.n >= max) return 'limit';
    const record: JourneyRecord = { ...copy(journey), id: count.next_id, client_id: clientId };
    count.n += 1;
    count.next_id += 1;
    count.summaries.set(record.id, summaryOf(record));
    this.heads.set(recordKey(clientId, record.id), copy(record));
    return copy(record);
  }

  async rename(journey: JourneyRecord, at: string): Promise<WriteOutcome> {
    const stored = this.heads.get(recordKey(journey.client_id, journey.id));
    if (!stored) return 'stale';
    stored.name = journey.name;
    stored.description = journey.description ?? '';
    stored.updated_at = at;
    this.touchSummary(stored, { name: journey.name, description: journey.description ?? '', updated_at: at });
    return 'done';
  }

  async saveDraft(
    journey: JourneyRecord,
    draft: JourneyDraft,
    draftVersion: number,
    at: string,
  ): Promise<WriteOutcome> {
    const stored = this.heads.get(recordKey(journey.client_id, journey.id));
    if (!stored || stored.draft_version !== draftVersion || stored.status === 'archived') return 'stale';
    stored.draft = copy(draft);
    stored.draft_version = draftVersion + 1;
    stored.updated_at = at;
    this.touchSummary(stored, { updated_at: at });
    return 'done';
  }

  async publish(write: PublishWrite): Promise<WriteOutcome> {
    const { journey, version, at } = write;
    const clientId = journey.client_id;
    const stored = this.heads.get(recordKey(clientId, journey.id));
    const settingsOk = () => {
      if (!write.settings) return true;
      const current = this.settings?.settings.get(clientId);
      return write.settings.expectedVersion === undefined
        ? current === undefined
        : current?.version === write.settings.expectedVersion;
    };
    const templatesOk = write.templateIds.every((id) => {
      const template = this.workflowData.templates.get(recordKey(clientId, id));
      return template !== undefined && !template.deleted_at;
    });
    const segmentsOk = write.segmentIds.every((id) => this.segmentExists?.(clientId, id) ?? true);
    if (
      !stored ||
      stored.draft_version !== write.draftVersion ||
      stored.status === 'archived' ||
      this.versionsByKey.has(versionKey(clientId, journey.id, version.version)) ||
      !this.indexAt(clientId, write.index) ||
      !templatesOk ||
      !segmentsOk ||
      !settingsOk()
    ) {
      return 'stale';
    }
    this.versionsByKey.set(versionKey(clientId, journey.id, version.version), copy(version));
    stored.status = journey.status;
    stored.live_version = version.version;
    stored.updated_at = at;
    this.writeIndex(clientId, write.index);
    this.touchSummary(stored, { status: journey.status, live_version: version.version, updated_at: at });
    if (write.settings) this.settings?.settings.set(clientId, copy(write.settings.record));
    return 'done';
  }

  async changeStatus(write: StatusWrite): Promise<WriteOutcome> {
    const { journey, from, to, at } = write;
    const stored = this.heads.get(recordKey(journey.client_id, journey.id));
    if (!stored || stored.status !== from || (write.index && !this.indexAt(journey.client_id, write.index))) {
      return 'stale';
    }
    stored.status = to;
    stored.updated_at = at;
    if (write.index) this.writeIndex(journey.client_id, write.index);
    this.touchSummary(stored, { status: to, updated_at: at });
    if (to === 'archived') this.countOf(journey.client_id).n -= 1;
    return 'done';
  }

  async delete(journey: JourneyRecord): Promise<WriteOutcome> {
    const key = recordKey(journey.client_id, journey.id);
    const stored = this.heads.get(key);
    if (stored?.status !== 'draft' || stored.live_version !== undefined) return 'stale';
    this.heads.delete(key);
    const count = this.countOf(journey.client_id);
    count.n -= 1;
    count.summaries.delete(journey.id);
    return 'done';
  }

  private countOf(clientId: number): MemoryCount {
    let count = this.counts.get(clientId);
    if (!count) {
      count = { n: 0, next_id: FIRST_CLIENT_JOURNEY_ID, summaries: new Map() };
      this.counts.set(clientId, count);
    }
    return count;
  }

  private indexAt(clientId: number, change: IndexChange): boolean {
    return (this.indexes.get(clientId)?.version ?? 0) === change.readVersion;
  }

  private writeIndex(clientId: number, change: IndexChange): void {
    this.indexes.set(clientId, { version: change.readVersion + 1, journeys: copy(change.journeys) });
  }

  private touchSummary(journey: JourneyRecord, fields: Partial<JourneySummary>): void {
    const summaries = this.countOf(journey.client_id).summaries;
    const summary = summaries.get(journey.id) ?? summaryOf(journey);
    summaries.set(journey.id, { ...summary, ...fields });
  }
}

const versionKey = (clientId: number, journeyId: number, version: number): string =>
  `${recordKey(clientId, journeyId)}#${version}`;
