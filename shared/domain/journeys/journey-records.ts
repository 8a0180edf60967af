/**
 * A journey as stored: its head (name, status, draft), its immutable versions, and the client's journey index — the
 * compiled view of every running journey that event processing and the executor read beside the settings, so neither
 * reads a journey item on its hot path.
 */
import type { JourneyDefinition, JourneyIssue, JourneySettings, JourneyTrigger, StepId } from './definition/types.js';
import type { SplitRule, SplitWinner } from './split-winner.js';

/**
 * draft: never published (deletable). live: new runs start. paused: no new runs; runs hold at their next step.
 * archived: no new runs; runs end at their next step (`journey_archived`); it leaves the index.
 */
export type JourneyStatus = 'draft' | 'live' | 'paused' | 'archived';

/** What happens to runs on a step a new version removes, chosen per step when publishing. */
export type StepMove = { action: 'finish_old' } | { action: 'move_to'; step_id: StepId } | { action: 'end' };

/** A draft as saved: a JSON object that may not yet be a valid JourneyDefinition. */
export type JourneyDraft = Record<string, unknown>;

export interface JourneyRecord {
  client_id: number;
  /** ≥ FIRST_CLIENT_JOURNEY_ID. */
  id: number;
  name: string;
  description?: string;
  status: JourneyStatus;
  /** The published version new runs start on; absent before the first publish. */
  live_version?: number;
  /**
   * The working copy and its optimistic-lock counter. Any JSON object up to JOURNEY_LIMITS.definitionBytes: a half-done
   * draft saves, and validation reports what it lacks, so it is not typed as a definition until it parses as one.
   */
  draft: JourneyDraft;
  draft_version: number;
  /** The system journey (workflow id) it was copied from. */
  copied_from?: number;
  /** Split winners decided (as on the index entry), kept here for the stats once the journey leaves the index too. */
  split_winners?: Record<StepId, SplitWinner>;
  created_at: string;
  updated_at: string;
}

export interface JourneyVersionRecord {
  client_id: number;
  journey_id: number;
  version: number;
  definition: JourneyDefinition;
  /** The publisher's choice for each step of the previous version this one removes. */
  moves: Record<StepId, StepMove>;
  published_at: string;
  /** The dashboard user who published (absent for an API key). */
  published_by?: number;
}

/** One running journey (live or paused) as event processing and the executor need it. */
export interface IndexedJourney {
  id: number;
  name: string;
  status: 'live' | 'paused';
  live_version: number;
  trigger: JourneyTrigger;
  entry: StepId;
  settings: JourneySettings;
  /** Event types some step of the live version waits for (`wait_for_event`): an event of one checks `waits_v`. */
  awaited_events: string[];
  templates_in_use: number[];
  /** The live version's splits that carry a winner rule (absent when none): what the counters projection decides on. */
  split_rules?: Record<StepId, SplitRule>;
  /** Winners decided (absent when none): a run reaching one of these splits takes the winning arm. */
  split_winners?: Record<StepId, SplitWinner>;
}

/** CLIENT#<id> / JOURNEYINDEX: every running journey of the client; `version` guards each publish and lifecycle change. */
export interface JourneyIndex {
  version: number;
  journeys: IndexedJourney[];
}

export type { JourneyIssue };
