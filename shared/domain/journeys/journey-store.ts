import type { SettingsRecord } from '../settings/settings-store.js';
import type {
  IndexedJourney,
  JourneyDraft,
  JourneyIndex,
  JourneyRecord,
  JourneyStatus,
  JourneyVersionRecord,
} from './journey-records.js';

/** One of the client's journeys as its list shows it, kept on the count item (one read lists them all). */
export interface JourneySummary {
  id: number;
  name: string;
  description?: string;
  status: JourneyStatus;
  live_version?: number;
  updated_at: string;
}

/** The count item: journeys not archived (the plan's limit), the next id, and every journey's summary. */
export interface JourneyCount {
  /** Journeys not archived. */
  n: number;
  /** The id the next journey gets (FIRST_CLIENT_JOURNEY_ID before the first). */
  next_id: number;
  journeys: JourneySummary[];
}

/** A version as the versions list shows it (no definition). */
export type JourneyVersionSummary = Pick<JourneyVersionRecord, 'version' | 'published_at' | 'published_by'>;

/** What a change of the index writes: the index as read (its `version`) and the journeys it holds after. */
export interface IndexChange {
  /** The index's `version` as read (0: no index item yet); the write is conditioned on it and raises it by one. */
  readVersion: number;
  journeys: IndexedJourney[];
}

/** The settings row a publish writes with the journey (disable_source_workflow), guarded by the version read. */
export interface SettingsChange {
  record: SettingsRecord;
  /** undefined: the client has no settings row yet (it is created). */
  expectedVersion: number | undefined;
}

/** One publish, written in one transaction. */
export interface PublishWrite {
  journey: JourneyRecord;
  /** The draft_version read: the draft published must be the one validated. */
  draftVersion: number;
  version: JourneyVersionRecord;
  index: IndexChange;
  /** Client templates the version's send steps use: each must still exist, undeleted, when the write lands. */
  templateIds: readonly number[];
  /** The segment the version's trigger enters or leaves: it must still exist when the write lands. */
  segmentIds: readonly number[];
  settings?: SettingsChange;
  at: string;
}

/** A status change (pause, resume, archive) with the index, in one transaction. */
export interface StatusWrite {
  journey: JourneyRecord;
  from: JourneyStatus;
  to: JourneyStatus;
  /** undefined: the index does not change (archiving a draft). */
  index?: IndexChange;
  at: string;
}

/** `stale`: a condition failed (another write came first, or the journey is gone); nothing was written. */
export type WriteOutcome = 'done' | 'stale';

/**
 * A client's journeys (keys.ts: journey, journey version, journey index, journey count). The count item holds `n`
 * (journeys not archived, so the plan's limit holds under concurrent creates), `next_id`, and each journey's summary;
 * every write that changes what a summary shows moves it in the same transaction. The index holds every live or
 * paused journey compiled for event processing and the executor; each write of it is conditioned on its `version`.
 * Versions are immutable (Put once).
 */
export interface JourneyStore {
  get(clientId: number, journeyId: number): Promise<JourneyRecord | undefined>;
  /** The journey and the client's index in one read (`{version: 0, journeys: []}` when there is no index yet). */
  getWithIndex(clientId: number, journeyId: number): Promise<{ journey?: JourneyRecord; index: JourneyIndex }>;
  /** The client's index (`{version: 0, journeys: []}` when there is none yet). */
  index(clientId: number): Promise<JourneyIndex>;
  /** The count item: every journey's summary by id (archived ones included). */
  list(clientId: number): Promise<JourneyCount>;
  version(clientId: number, journeyId: number, version: number): Promise<JourneyVersionRecord | undefined>;
  /** Every version of a journey, newest first, without their definitions. */
  versions(clientId: number, journeyId: number): Promise<JourneyVersionSummary[]>;
  /**
   * Stores a new draft journey under the next id and counts it, unless the client holds `max` journeys not archived
   * (`limit`: nothing written).
   */
  create(
    clientId: number,
    journey: Omit<JourneyRecord, 'id' | 'client_id'>,
    max: number,
  ): Promise<JourneyRecord | 'limit'>;
  /** Name and description (with the summary). */
  rename(journey: JourneyRecord, at: string): Promise<WriteOutcome>;
  /** The draft, if it is still at `draftVersion` (it becomes draftVersion + 1). */
  saveDraft(journey: JourneyRecord, draft: JourneyDraft, draftVersion: number, at: string): Promise<WriteOutcome>;
  /** The version, the journey, the index, the summary (and the settings): all or nothing. */
  publish(write: PublishWrite): Promise<WriteOutcome>;
  /** The journey's status, the index and the summary (archive also frees its place in the count). */
  changeStatus(write: StatusWrite): Promise<WriteOutcome>;
  /** Removes a journey never published, with its summary and its place in the count. */
  delete(journey: JourneyRecord): Promise<WriteOutcome>;
}

export const EMPTY_INDEX: JourneyIndex = { version: 0, journeys: [] };
