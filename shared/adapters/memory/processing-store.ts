import type {
  CommitOutcome,
  ProcessingCommit,
  ProcessingContext,
  ProcessingStore,
} from '../../domain/events/processing-store.js';
import { utcDayOf } from '../../domain/time/utc-days.js';
import { EXECUTION_STATUS } from '../../domain/executions/execution-record.js';
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

  async loadContext(
    clientId: number,
    contactId: number | undefined,
    workflowIds: readonly number[],
  ): Promise<ProcessingContext> {
    const contact =
      contactId === undefined ? undefined : this.aggregates.contacts.contacts.get(clientKey(clientId, contactId));
    const settings = this.aggregates.settings.settings.get(clientId);
    const client = this.aggregates.clients.clients.get(clientId);
    const openHours = this.data.clientOpenHours.get(clientId);
    return {
      contact: contact && copy(contact),
      settings: settings && copy(settings),
      client: client && copy(client),
      customizations: workflowIds.flatMap((workflowId) => {
        const found = this.aggregates.workflowData.customizations.get(recordKey(clientId, workflowId));
        return found ? [{ ...copy(found), workflow_id: workflowId }] : [];
      }),
      ...(openHours ? { clientOpenHours: openHoursOf(openHours) } : {}),
    };
  }

  async commit({ event, executions, contact, cancellations = [] }: ProcessingCommit): Promise<CommitOutcome> {
    const eventKey = clientKey(event.client_id, event.id);
    // The transaction's conditions, in its order: the event still queued, each execution id free, the contact there,
    // each execution a goal cancels still queued.
    if (this.data.events.get(eventKey)?.queue_status !== 'queued') return 'already_processed';
    if (executions.some((e) => this.data.executions.has(clientKey(e.client_id, e.id)))) return 'id_taken';
    const storedContact =
      contact && this.aggregates.contacts.contacts.get(clientKey(event.client_id, contact.contactId));
    if (contact && !storedContact) throw new MemoryTransactionCancelled(`contact ${contact.contactId} does not exist`);
    const moved = cancellations.filter(
      (c) =>
        this.data.executions.get(clientKey(event.client_id, c.execution.execution_id))?.status !==
        EXECUTION_STATUS.queued,
    );
    if (moved.length > 0) return { moved: moved.map((c) => c.execution.execution_id) };
    // Each conversion only while its send is not converted yet (the contact update's condition).
    if (
      storedContact &&
      (contact?.conversions ?? []).some((c) => convertedSendOf(storedContact, c.workflowId) === c.sentAt)
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
    }
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
