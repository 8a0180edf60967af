import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import { EXECUTION_STATUS } from '../../domain/executions/execution-record.js';
import type { JourneyVersionRecord } from '../../domain/journeys/journey-records.js';
import {
  RUN_ENDED_STATUSES,
  RUNS_IN_FLIGHT_ATTRIBUTE,
  runMarkerAttribute,
  WAITS_VERSION_ATTRIBUTE,
  waitMarkerAttribute,
  type RunRecord,
} from '../../domain/runs/run-record.js';
import type {
  DueRun,
  DueRunPage,
  RunContactChange,
  RunReads,
  RunReadWants,
  RunStore,
  RunTransition,
  TransitionOutcome,
} from '../../domain/runs/run-store.js';
import { membershipOf } from '../../domain/runs/segment-membership.js';
import { openHoursOf } from '../../domain/tracking/open-hours.js';
import { listOpenExecution } from './contact-goals.js';
import { clientKey, copy, sentEmailKey, stored, type MemoryAggregates, type MemoryEngineData } from './engine-data.js';
import { keys } from '../dynamo/keys.js';
import { RUN_RETENTION_DAYS } from '../dynamo/run-item.js';

/**
 * RunStore in memory, with the DynamoDB adapter's contract: a transition checks the run's seq and status, the
 * contact's `updated_at` (under a whole-value write) and the execution ids before it writes anything, and then writes
 * all of it without an `await` in between (all or nothing, as a transaction). Runs and locks live in the engine data,
 * where the memory processing store starts and resumes them.
 */
export class MemoryRunStore implements RunStore {
  constructor(
    private readonly aggregates: MemoryAggregates,
    private readonly data: MemoryEngineData,
  ) {}

  async read(clientId: number, wants: RunReadWants): Promise<RunReads> {
    const run = wants.runId === undefined ? undefined : this.data.runs.get(clientKey(clientId, wants.runId));
    const contact =
      wants.contactId === undefined
        ? undefined
        : this.aggregates.contacts.contacts.get(clientKey(clientId, wants.contactId));
    const execution =
      wants.executionId === undefined ? undefined : this.data.executions.get(clientKey(clientId, wants.executionId));
    const engagement: RunReads['engagement'] = {};
    for (const id of wants.sentEmailIds ?? []) {
      const k = sentEmailKey(clientId, id);
      engagement[id] = {
        opened: this.data.countedEngagement.has(`${k}\u0000open`),
        clicked: this.data.countedEngagement.has(`${k}\u0000click`),
      };
    }
    const reads: RunReads = {
      ...(run ? { run: copy(run) } : {}),
      ...(contact ? { contact: copy(contact) } : {}),
      ...(execution ? { execution: copy(execution) } : {}),
      engagement,
      ...(wants.segments ? { segments: this.memberships(clientId, wants.segments) } : {}),
      ...(wants.versions
        ? { versions: await this.versions(clientId, wants.versions.journeyId, wants.versions.versions) }
        : {}),
    };
    if (!wants.config) return reads;
    const settings = this.aggregates.settings.settings.get(clientId);
    const index = this.aggregates.journeys?.indexOf(clientId);
    const topics = this.aggregates.topics?.peek(clientId);
    const openHours = this.data.clientOpenHours.get(clientId);
    return {
      ...reads,
      ...(settings ? { settings: copy(settings) } : {}),
      ...(index ? { index: copy(index) } : {}),
      ...(topics ? { topics: copy(topics) } : {}),
      ...(openHours ? { clientOpenHours: openHoursOf(openHours) } : {}),
    };
  }

  /** The contact's membership of each segment asked, as the DynamoDB adapter reads it (SEGSTATE and the index). */
  private memberships(clientId: number, wanted: NonNullable<RunReadWants['segments']>): Record<number, boolean> {
    const state = this.data.segmentStates.get(clientKey(clientId, wanted.contactId));
    return membershipOf(state?.members, this.data.segmentIndexes.get(clientId), wanted.segmentIds);
  }

  async versions(clientId: number, journeyId: number, versions: readonly number[]): Promise<JourneyVersionRecord[]> {
    return versions.flatMap((v) => {
      const found = this.aggregates.journeys?.versionOf(clientId, journeyId, v);
      return found ? [copy(found)] : [];
    });
  }

  async transition(t: RunTransition): Promise<TransitionOutcome> {
    const runKey = clientKey(t.run.client_id, t.run.id);
    const current = this.data.runs.get(runKey);
    // The transaction's conditions, in its order: the run, the contact, each execution id free.
    if (!current || current.seq !== t.expectedSeq || RUN_ENDED_STATUSES.includes(current.status)) return 'stale';
    const contact = t.contact
      ? this.aggregates.contacts.contacts.get(clientKey(t.run.client_id, t.contact.contactId))
      : undefined;
    if (t.contact && !contact) return 'contact_changed';
    if (t.contact?.seenUpdatedAt !== undefined && contact!.updated_at !== t.contact.seenUpdatedAt)
      return 'contact_changed';
    const executions = t.executions ?? [];
    if (executions.some((e) => this.data.executions.has(clientKey(e.client_id, e.id))))
      throw new Error('execution id taken');

    this.data.runs.set(runKey, storedRun(t.run));
    if (t.contact && contact) applyContactChange(contact, t.contact);
    for (const e of executions) {
      this.data.executions.set(clientKey(e.client_id, e.id), stored(e));
      if (e.status === EXECUTION_STATUS.queued && !e.critical)
        this.data.dayCap(e.client_id, e.contact_id, e.cap_day).pending.set(e.id, e.priority_score);
    }
    if (t.releaseLock) {
      const { journeyId, contactId, keyHash } = t.releaseLock;
      const lock = this.data.runLocks.get(keys.runLock(t.run.client_id, journeyId, contactId, keyHash).pk);
      // Only this run's lock: one a newer run took (after a TTL) is left alone, as the DynamoDB condition does.
      if (lock && lock.run_id === t.run.id) lock.active = false;
    }
    return 'committed';
  }

  async dueBefore(before: string, limit: number, cursor?: string): Promise<DueRunPage> {
    return this.page((run) => run.due_at! < before, limit, cursor);
  }

  async allDue(limit: number, cursor?: string): Promise<DueRunPage> {
    return this.page(() => true, limit, cursor);
  }

  async eraseRuns(clientId: number, runIds: readonly number[], at: string): Promise<{ runs: number; ended: number }> {
    let runs = 0;
    let ended = 0;
    for (const id of runIds) {
      const run = this.data.runs.get(clientKey(clientId, id));
      if (!run) continue;
      runs += 1;
      if (!RUN_ENDED_STATUSES.includes(run.status)) {
        ended += 1;
        Object.assign(run, endedForErasure(run, at));
        delete run.due_at;
        delete run.wait;
        delete run.resumed_by;
      }
      delete (run as Partial<RunRecord>).event;
      delete run.key_value;
      this.data.runLocks.delete(keys.runLock(clientId, run.journey_id, run.contact_id, run.key_hash).pk);
    }
    return { runs, ended };
  }

  /** Runs still due, by due time (then client and id), as the sharded index reads them. */
  private page(match: (run: RunRecord) => boolean, limit: number, cursor?: string): DueRunPage {
    const due = [...this.data.runs.values()]
      .filter((r) => !RUN_ENDED_STATUSES.includes(r.status) && r.due_at !== undefined && match(r))
      .sort((a, b) => a.due_at!.localeCompare(b.due_at!) || a.client_id - b.client_id || a.id - b.id);
    const start = cursor === undefined ? 0 : Number(cursor);
    const slice = due.slice(start, start + limit);
    const runs: DueRun[] = slice.map((r) => ({
      client_id: r.client_id,
      run_id: r.id,
      seq: r.seq,
      contact_id: r.contact_id,
      due_at: r.due_at!,
      journey_id: r.journey_id,
      version: r.version,
      ...(r.wait?.kind === 'send' && r.wait.execution_id !== undefined ? { execution_id: r.wait.execution_id } : {}),
    }));
    return start + limit < due.length ? { runs, cursor: String(start + limit) } : { runs };
  }
}

const endedForErasure = (run: RunRecord, at: string): Partial<RunRecord> => ({
  status: 'ended',
  reason: 'contact_erased',
  seq: run.seq + 1,
  ended_at: at,
  updated_at: at,
  expires_at: Math.floor(Date.parse(at) / 1000) + RUN_RETENTION_DAYS * 86_400,
});

/** As runItem stores it: an ended run gets its TTL. */
function storedRun(run: RunRecord): RunRecord {
  const ended = RUN_ENDED_STATUSES.includes(run.status);
  return stored({
    ...run,
    ...(ended && run.expires_at === undefined
      ? { expires_at: Math.floor(Date.parse(run.ended_at ?? run.updated_at) / 1000) + RUN_RETENTION_DAYS * 86_400 }
      : {}),
  });
}

/** The contact change of a transition, under the attribute names the DynamoDB item uses. */
function applyContactChange(contact: ContactRecord, change: RunContactChange): void {
  const attributes = contact as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(change.fields ?? {})) {
    if (value === null) delete attributes[field];
    else attributes[field] = value;
  }
  if (change.tags) contact.tags = [...change.tags];
  if (change.customFields) contact.custom_fields = copy(change.customFields);
  if (change.fields || change.tags || change.customFields) contact.updated_at = change.at;
  if (change.removeWait !== undefined) delete attributes[waitMarkerAttribute(change.removeWait)];
  if (change.wait) {
    attributes[waitMarkerAttribute(change.wait.runId)] = copy(change.wait.marker);
    attributes[WAITS_VERSION_ATTRIBUTE] = Number(attributes[WAITS_VERSION_ATTRIBUTE] ?? 0) + 1;
  }
  if (change.removeRun !== undefined) {
    delete attributes[runMarkerAttribute(change.removeRun)];
    attributes[RUNS_IN_FLIGHT_ATTRIBUTE] = Number(attributes[RUNS_IN_FLIGHT_ATTRIBUTE] ?? 1) - 1;
  }
  if (change.opened) {
    listOpenExecution(contact, change.opened);
    contact.active_workflow_count = (contact.active_workflow_count ?? 0) + 1;
  }
}
