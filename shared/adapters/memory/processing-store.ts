import type {
  CommitOutcome,
  JourneyRefusals,
  ProcessingCommit,
  ProcessingContext,
  ProcessingStore,
  RunEntryWrite,
} from '../../domain/events/processing-store.js';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import { keys } from '../dynamo/keys.js';
import { RUN_RETENTION_DAYS } from '../dynamo/run-item.js';
import {
  RUNS_IN_FLIGHT_ATTRIBUTE,
  runMarkerAttribute,
  WAITS_VERSION_ATTRIBUTE,
  waitMarkerAttribute,
} from '../../domain/runs/run-record.js';
import {
  runsCounterAfter,
  runsCounterChangeOf,
  runsCounterHolds,
  runsCounterOf,
} from '../../domain/runs/runs-counter.js';
import { utcDayOf } from '../../domain/time/utc-days.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import type { ConversionBroadcast } from '../../domain/broadcasts/conversions.js';
import {
  clientKey,
  copy,
  MemoryEngineData,
  MemoryTransactionCancelled,
  stored,
  type MemoryAggregates,
} from './engine-data.js';
import { openHoursOf } from '../../domain/tracking/open-hours.js';
import { recordKey } from './workflow-data.js';
import { GOAL_REACHED } from '../../domain/workflows/goals.js';
import { endClaim } from './delivery-store.js';
import {
  convertedSendOf,
  listOpenExecution,
  markConverted,
  setGoalMark,
  unlistOpenExecution,
} from './contact-goals.js';

/**
 * ProcessingStore in memory: reads the contacts, settings, profiles and customizations of the other memory stores
 * and writes the events and executions of `data`, with the DynamoDB adapter's contract (the commit is all or nothing).
 */
export class MemoryProcessingStore implements ProcessingStore {
  constructor(
    private readonly aggregates: MemoryAggregates,
    readonly data: MemoryEngineData = new MemoryEngineData(),
  ) {}

  async findContactId(clientId: number, ref: { email: string } | { uid: string }): Promise<number | undefined> {
    if ('uid' in ref) return (await this.aggregates.contacts.findIdsByUid(clientId, [ref.uid])).get(ref.uid);
    // The DynamoDB e-mail lock is keyed by the lower-cased address.
    const email = ref.email.toLowerCase();
    for (const contact of this.aggregates.contacts.contacts.values()) {
      if (contact.client_id === clientId && contact.email.toLowerCase() === email) return contact.id;
    }
    return undefined;
  }

  /** Client → the broadcasts that count conversions (the DynamoDB configuration item's entries). */
  readonly broadcastConversions = new Map<number, ConversionBroadcast[]>();

  async broadcastRecipients(clientId: number, broadcastId: number, contactId: number): Promise<ExecutionRecord[]> {
    return [...this.data.executions.values()]
      .filter((e) => e.client_id === clientId && e.broadcast_id === broadcastId && e.contact_id === contactId)
      .sort((a, b) => a.id - b.id)
      .map((e) => copy(e));
  }

  async markConverted(clientId: number, executionId: number, at: string, eventId: number): Promise<boolean> {
    const found = [...this.data.executions.values()].find((e) => e.client_id === clientId && e.id === executionId);
    if (!found || found.converted_at !== undefined) return false;
    Object.assign(found, { converted_at: at, conversion_event_id: eventId });
    return true;
  }

  async loadContext(
    clientId: number,
    contactId: number | undefined,
    workflowIds: readonly number[],
  ): Promise<ProcessingContext> {
    const conversions = this.broadcastConversions.get(clientId);
    const contact =
      contactId === undefined ? undefined : this.aggregates.contacts.contacts.get(clientKey(clientId, contactId));
    const settings = this.aggregates.settings.settings.get(clientId);
    const client = this.aggregates.clients.clients.get(clientId);
    const openHours = this.data.clientOpenHours.get(clientId);
    const journeyIndex = this.aggregates.journeys?.indexOf(clientId);
    const topics = this.aggregates.topics && (await this.aggregates.topics.load(clientId));
    const segmentIndex = this.data.segmentIndexes.get(clientId);
    const counters =
      contactId === undefined ? undefined : this.data.contactCounters.get(clientKey(clientId, contactId));
    return {
      contact: contact && copy(contact),
      settings: settings && copy(settings),
      client: client && copy(client),
      customizations: workflowIds.flatMap((workflowId) => {
        const found = this.aggregates.workflowData.customizations.get(recordKey(clientId, workflowId));
        return found ? [{ ...copy(found), workflow_id: workflowId }] : [];
      }),
      ...(openHours ? { clientOpenHours: openHoursOf(openHours) } : {}),
      ...(journeyIndex ? { journeyIndex: copy(journeyIndex) } : {}),
      // As the DynamoDB item: absent until the client's topics were first written.
      ...(topics && topics.version > 0 ? { topics: copy(topics) } : {}),
      ...(segmentIndex ? { segmentIndex: copy(segmentIndex) } : {}),
      ...(counters ? { counters: copy(counters) } : {}),
      ...(conversions ? { broadcastConversions: copy(conversions) } : {}),
    };
  }

  async commit({
    event,
    executions,
    contact,
    cancellations = [],
    entries = [],
    resolutions = [],
    runExits = [],
  }: ProcessingCommit): Promise<CommitOutcome> {
    const eventKey = clientKey(event.client_id, event.id);
    const runOf = (runId: number) => this.data.runs.get(clientKey(event.client_id, runId));
    const lockKey = (l: { journeyId: number; contactId: number; keyHash?: string }) =>
      keys.runLock(event.client_id, l.journeyId, l.contactId, l.keyHash).pk;
    const lockReleases = runExits.filter((e) => !e.keepLock);
    // The transaction's conditions, in its order: the event still queued, each execution and run id free, each run
    // lock free by its re-entry rule, the contact there, each execution a goal cancels still queued, each resolved
    // run still waiting at its seq and step, each exited run in flight, each released lock still that run's.
    if (this.data.events.get(eventKey)?.queue_status !== 'queued') return 'already_processed';
    if (executions.some((e) => this.data.executions.has(clientKey(e.client_id, e.id)))) return 'id_taken';
    if (entries.some(({ run }) => runOf(run.id))) return 'id_taken';
    const storedContact =
      contact && this.aggregates.contacts.contacts.get(clientKey(event.client_id, contact.contactId));
    if (contact && !storedContact) throw new MemoryTransactionCancelled(`contact ${contact.contactId} does not exist`);
    const counterChange = contact && runsCounterChangeOf(contact);
    const moved = cancellations.filter(
      (c) =>
        this.data.executions.get(clientKey(event.client_id, c.execution.execution_id))?.status !==
        EXECUTION_STATUS.queued,
    );
    const refusals: JourneyRefusals = {};
    const refused = entries.flatMap(({ lock }) => {
      const held = this.data.runLocks.get(lockKey(lock));
      return held && !lockFree(held, lock)
        ? [{ journey_id: lock.journeyId, outcome: held.active ? ('in_flight' as const) : ('reentry_window' as const) }]
        : [];
    });
    if (refused.length > 0) refusals.refused = refused;
    const lost = resolutions.filter((r) => {
      const run = runOf(r.runId);
      return !run || run.seq !== r.seq || run.status !== 'waiting' || run.step_id !== r.stepId;
    });
    if (lost.length > 0) refusals.resolutionsLost = lost.map((r) => r.runId);
    const missed = runExits.filter((e) => !['active', 'waiting'].includes(runOf(e.runId)?.status ?? ''));
    if (missed.length > 0) refusals.exitsMissed = missed.map((e) => e.runId);
    const gone = lockReleases.filter((e) => this.data.runLocks.get(lockKey(e))?.run_id !== e.runId);
    if (gone.length > 0) refusals.locksGone = gone.map((e) => e.runId);
    if (moved.length > 0 || Object.keys(refusals).length > 0)
      return { moved: moved.map((c) => c.execution.execution_id), ...refusals };
    // Each conversion only while its send is not converted yet, and no wait entered since the read of an awaited
    // event's contact (the contact update's conditions).
    if (
      storedContact &&
      ((contact?.conversions ?? []).some((c) => convertedSendOf(storedContact, c.workflowId) === c.sentAt) ||
        (contact?.waitsVersionRead !== undefined && waitsVersionOf(storedContact) !== contact.waitsVersionRead) ||
        (counterChange !== undefined && !runsCounterHolds(counterChange, runsCounterOf(storedContact))) ||
        (contact?.counters !== undefined &&
          (this.data.contactCounters.get(clientKey(event.client_id, contact.contactId))?.ev_v ?? null) !==
            contact.counters.readVersion))
    )
      return 'contact_changed';

    const before = this.data.events.get(eventKey);
    this.data.events.set(eventKey, stored(event));
    this.data.stats.changed({ entity: 'event', clientId: event.client_id, old: before, new: stored(event) });
    this.data.queuedIndex.delete(eventKey);
    for (const execution of executions)
      this.data.executions.set(clientKey(execution.client_id, execution.id), stored(execution));
    if (contact && storedContact) {
      storedContact.updated_at = contact.at;
      if (contact.tags) storedContact.tags = [...contact.tags];
      if (contact.lastPurchaseAt) storedContact.last_purchase_at = contact.lastPurchaseAt;
      if (contact.lastActivityAt) storedContact.last_activity_at = contact.lastActivityAt;
      if (contact.workflowsStarted !== 0)
        storedContact.active_workflow_count = (storedContact.active_workflow_count ?? 0) + contact.workflowsStarted;
      for (const workflowId of contact.goalMarks?.workflowIds ?? [])
        setGoalMark(storedContact, workflowId, { at: contact.at, event_id: contact.goalMarks!.eventId });
      for (const open of contact.opened ?? []) listOpenExecution(storedContact, open);
      for (const id of contact.closed ?? []) unlistOpenExecution(storedContact, id);
      for (const c of contact.conversions ?? []) markConverted(storedContact, c.workflowId, c.sentAt);
      const attributes = storedContact as unknown as Record<string, unknown>;
      for (const r of contact.runsStarted ?? [])
        attributes[runMarkerAttribute(r.runId)] = {
          j: r.journeyId,
          q: 1,
          ...(r.keyHash !== undefined ? { k: r.keyHash } : {}),
        };
      for (const id of contact.waitsRemoved ?? []) delete attributes[waitMarkerAttribute(id)];
      for (const id of contact.runsRemoved ?? []) delete attributes[runMarkerAttribute(id)];
      if (counterChange)
        attributes[RUNS_IN_FLIGHT_ATTRIBUTE] = runsCounterAfter(counterChange, runsCounterOf(storedContact));
      if (contact.counters)
        this.data.contactCounters.set(clientKey(event.client_id, contact.contactId), copy(contact.counters.next));
    }
    for (const { run, lock } of entries) {
      this.data.runs.set(clientKey(run.client_id, run.id), stored(run));
      this.data.runLocks.set(lockKey(lock), {
        run_id: lock.runId,
        active: true,
        entered_at: lock.enteredAt,
        ...(lock.expiresAt !== undefined ? { expires_at: lock.expiresAt } : {}),
      });
    }
    for (const r of resolutions) {
      Object.assign(runOf(r.runId)!, {
        status: 'active',
        seq: r.seq + 1,
        resumed_by: { event_id: r.eventId, at: r.at },
        due_at: r.at,
        updated_at: r.at,
      });
    }
    for (const e of runExits) {
      const run = runOf(e.runId)!;
      Object.assign(run, {
        status: 'exited',
        reason: 'exit_event',
        ended_at: e.at,
        updated_at: e.at,
        expires_at: Math.floor(Date.parse(e.at) / 1000) + RUN_RETENTION_DAYS * 86_400,
      });
      delete run.due_at;
    }
    for (const e of lockReleases) this.data.runLocks.get(lockKey(e))!.active = false;
    for (const c of cancellations) {
      const execution = this.data.executions.get(clientKey(event.client_id, c.execution.execution_id))!;
      this.data.changeExecution(execution, (e) => {
        Object.assign(e, {
          status: EXECUTION_STATUS.cancelled,
          reason: GOAL_REACHED,
          goal_event_id: c.eventId,
          processed_at: c.at,
          updated_at: c.at,
        });
        endClaim(e);
      });
      this.data.peekDayCap(event.client_id, c.contactId, c.execution.cap_day)?.pending.delete(c.execution.execution_id);
    }
    // Each queued, non-critical execution waits for a slot of its contact's day (its priority decides).
    for (const e of executions) {
      if (e.status !== EXECUTION_STATUS.queued || e.critical) continue;
      this.data.dayCap(e.client_id, e.contact_id, e.cap_day).pending.set(e.id, e.priority_score);
    }
    return 'committed';
  }
}

/** Whether a lock lets this entry take it, by the entry's re-entry rule (the DynamoDB Put's condition). */
function lockFree(held: { active: boolean; entered_at: string }, lock: RunEntryWrite['lock']): boolean {
  if (lock.reentry === 'once') return false;
  if (lock.reentry === 'always') return !held.active;
  return !held.active && held.entered_at < lock.cutoff!;
}

const waitsVersionOf = (contact: ContactRecord): number | null => {
  const value = (contact as unknown as Record<string, unknown>)[WAITS_VERSION_ATTRIBUTE];
  return typeof value === 'number' ? value : null;
};
