import type { MemoryTopicStore } from './topic-store.js';
import type { EventRecord } from '../../domain/events/event-record.js';
import type { ExecutionRecord } from '../../domain/executions/execution-record.js';
import type { JourneyIndex, JourneyVersionRecord } from '../../domain/journeys/journey-records.js';
import type { RunRecord } from '../../domain/runs/run-record.js';
import type { ContactCounters } from '../../domain/segments/definition/types.js';
import type { SegmentIndex, SegmentState } from '../../domain/segments/membership-store.js';
import type { SentEmailLogRecord, SentEmailRecord } from '../../domain/sent-emails/sent-email-record.js';
import type { MemoryClientStore } from './client-stores.js';
import type { MemoryContactStore } from './contact-store.js';
import type { MemorySettingsStore } from './settings-store.js';
import type { UserStore } from '../../domain/users/user-store.js';
import { MemoryStatsStore } from './stats-store.js';
import { MemoryEngagementFacts } from './engagement-facts.js';
import { recordKey, type MemoryWorkflowData } from './workflow-data.js';

/** The idempotency lock an event insert claims (DynamoDB: `IDEM#<client>#<key hash>`). */
export interface MemoryIdempotencyLock {
  event_id: number;
  request_hash: string;
  created_at: string;
  expires_at: number;
}

/** A client's quota counter of one UTC month and shard: `sent` (the month) and `d<DD>` (each day); absent = never raised. */
export type MemoryQuotaCounter = Record<string, number>;

/** A contact's counter of one local day: e-mails sent (absent until the first claim) and the executions waiting. */
export interface MemoryDayCap {
  sent?: number;
  pending: Map<number, number>;
}

/**
 * What the engine's memory stores share, as their DynamoDB twins share one table: events and their locks, executions,
 * sent e-mails with their logs, and the quota and day-cap counters. Every method that checks conditions and then
 * writes does so without an `await` in between, so a memory "transaction" is atomic as DynamoDB's is.
 */
export class MemoryEngineData {
  readonly events = new Map<string, EventRecord>();
  /** Events carrying the sparse "queued" index entry: set by insert, dropped when processing writes the event. */
  readonly queuedIndex = new Set<string>();
  readonly idempotency = new Map<string, MemoryIdempotencyLock>();
  readonly executions = new Map<string, ExecutionRecord>();
  readonly sentEmails = new Map<string, SentEmailRecord>();
  /** Sent e-mail key → log sort key (`<created_at>#<log id>`) → log. */
  readonly sentEmailLogs = new Map<string, Map<string, SentEmailLogRecord>>();
  /** Provider message id → the e-mail it belongs to (status notifications find it). */
  readonly providerMessages = new Map<
    string,
    {
      client_id: number;
      sent_email_id: string;
      contact_id: number;
      workflow_id?: number;
      created_at: string;
      send_zone?: string;
      step_id?: string;
      arms?: Record<string, string>;
    }
  >();
  /** `<client>\0<yyyy-mm>` → `b<DD>` permanent bounces and `c<DD>` complaints of each UTC day. */
  readonly deliverability = new Map<string, Record<string, number>>();
  /** `<sent e-mail key>\0open|click`: the e-mail's first human open / click was counted on its contact. */
  readonly countedEngagement = new Set<string>();
  /** Client id → its aggregate open-hour histogram (`open_h00`…`open_h23`, DynamoDB: `OPENHOURS#<client>`). */
  readonly clientOpenHours = new Map<number, Record<string, number>>();
  /** `<client>\0<yyyy-mm>\0<shard>` → counter. */
  readonly quota = new Map<string, MemoryQuotaCounter>();
  /** `<client>\0<contact>\0<local yyyy-mm-dd>` → counter. */
  readonly dayCaps = new Map<string, MemoryDayCap>();
  /** The day counters, fed with every change of a counted record as the change stream feeds the projection. */
  readonly stats = new MemoryStatsStore();
  /** Journey runs by clientKey(client, run id) (DynamoDB: `RUN#<client>#<id>` / RUN). */
  readonly runs = new Map<string, RunRecord>();
  /** Run locks by their DynamoDB partition key (keys.runLock(...).pk): one run in flight per (journey, contact, key). */
  readonly runLocks = new Map<string, MemoryRunLock>();
  /** Contacts' event counters by clientKey(client, contact) (DynamoDB: `CONTACT#<client>#<id>` / EVCOUNT). */
  readonly contactCounters = new Map<string, ContactCounters>();
  /** Contacts' engagement with each journey and broadcast (DynamoDB: `CONTACT#<client>#<id>` / ENG#<source>). */
  readonly contactEngagement = new MemoryEngagementFacts();
  /**
   * Broadcast ids by client, for what reads a broadcast's existence (a segment's engagement source): there is no memory
   * broadcast store, so a test places the broadcasts it names.
   */
  readonly broadcastIds = new Map<number, Set<number>>();
  /** Each client's segment index (DynamoDB: `CLIENT#<id>` / SEGMENTINDEX). */
  readonly segmentIndexes = new Map<number, SegmentIndex>();
  /** Contacts' segment states by clientKey(client, contact) (DynamoDB: `CONTACT#<client>#<id>` / SEGSTATE). */
  readonly segmentStates = new Map<string, SegmentState>();
  /** Member entries: `<client>\0<segment>` → contact id → entry (DynamoDB: `SEGM#…`, entity `segment_member`). */
  readonly segmentMembers = new Map<string, Map<number, { z?: string; at: string }>>();

  /** An execution changed by `change` (in place), reported to the day counters with its images before and after. */
  changeExecution<T>(execution: ExecutionRecord, change: (execution: ExecutionRecord) => T): T {
    const old = copy(execution);
    const result = change(execution);
    this.stats.changed({ entity: 'execution', clientId: execution.client_id, old, new: copy(execution) });
    return result;
  }

  dayCap(clientId: number, contactId: number, day: string): MemoryDayCap {
    const k = `${clientId}\u0000${contactId}\u0000${day}`;
    let cap = this.dayCaps.get(k);
    if (!cap) {
      cap = { pending: new Map() };
      this.dayCaps.set(k, cap);
    }
    return cap;
  }

  peekDayCap(clientId: number, contactId: number, day: string): MemoryDayCap | undefined {
    return this.dayCaps.get(`${clientId}\u0000${contactId}\u0000${day}`);
  }
}

/** A run lock as stored (keys.runLock): the run in flight for its (journey, contact, key value). */
export interface MemoryRunLock {
  run_id: number;
  active: boolean;
  entered_at: string;
  expires_at?: number;
}

/** What the engine's memory stores read of the journeys (the journey index and the immutable versions). */
export interface MemoryJourneyReads {
  indexOf(clientId: number): JourneyIndex | undefined;
  versionOf(clientId: number, journeyId: number, version: number): JourneyVersionRecord | undefined;
}

/** The other aggregates' memory stores that the engine's cross-aggregate stores read and write. */
export interface MemoryAggregates {
  contacts: MemoryContactStore;
  clients: MemoryClientStore;
  settings: MemorySettingsStore;
  workflowData: MemoryWorkflowData;
  /** The clients' topics; absent where a test builds the aggregates without them. */
  topics?: MemoryTopicStore;
  /** The dashboard users (a sandboxed client's recipients); absent where a test builds the aggregates without them. */
  users?: Pick<UserStore, 'list'>;
  /** The clients' journey indexes and versions; absent where a test builds the aggregates without them. */
  journeys?: MemoryJourneyReads;
}

/** The key of a record under a client (the format MemoryContactStore and MemoryWorkflowData use too). */
export const clientKey = recordKey;
export const sentEmailKey = (clientId: number, sentEmailId: string): string => `${clientId}\u0000${sentEmailId}`;

/** A DynamoDB transaction cancelled by a failed condition that its adapter does not translate into an outcome. */
export class MemoryTransactionCancelled extends Error {
  constructor(reason: string) {
    super(`Transaction cancelled: ${reason}`);
    this.name = 'MemoryTransactionCancelled';
  }
}

export const copy = <T>(value: T): T => structuredClone(value);

/** A record as DynamoDB would store it: undefined attributes are not written (removeUndefinedValues). */
export const stored = <T extends object>(record: T): T =>
  Object.fromEntries(Object.entries(copy(record)).filter(([, v]) => v !== undefined)) as T;
