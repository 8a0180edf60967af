import type { ClientRecord } from '../clients/client-store.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { ExecutionRecord } from '../executions/execution-record.js';
import type { SettingsRecord } from '../settings/settings-store.js';
import type { OpenHours } from '../tracking/open-hours.js';
import type { CustomizationRecord } from '../workflows/customization.js';
import type { OpenExecution } from '../workflows/goals.js';
import type { EventRecord } from './event-record.js';

/** What processing one event reads besides the event: fetched together in one request. */
export interface ProcessingContext {
  contact?: ContactRecord;
  settings?: SettingsRecord;
  client?: ClientRecord;
  customizations: CustomizationRecord[];
  /** The client's aggregate open-hour histogram (send time mode 2's fallback); absent before any open. */
  clientOpenHours?: OpenHours;
}

/** The contact's figures an event moves (DESIGN.md §8, docs/decisions/0041-event-effects-on-contacts.md "events update contacts"). */
export interface ContactEventUpdate {
  contactId: number;
  tags?: string[];
  lastPurchaseAt?: string;
  lastActivityAt?: string;
  /** Executions started (ADD). */
  workflowsStarted: number;
  at: string;
  /** The event exits these workflows: their goal marks are set to this event (`goal_w<id>`). */
  goalMarks?: { workflowIds: number[]; eventId: number };
  /** Queued executions created, listed on the contact (`open_<id>`) so an exit event finds them without a query. */
  opened?: OpenExecution[];
  /** Listed executions no longer queued (cancelled here, or found moved on): their entries go. */
  closed?: number[];
  /**
   * Conversions: the workflow's last e-mail to the contact, sent at `sentAt`, is converted by this exit —
   * `conv_w<id>` set to it, on the condition that it was not converted already (once per e-mail).
   */
  conversions?: { workflowId: number; sentAt: string }[];
}

/** A queued execution the exit event ends: 1 → 5 `goal_reached` with the event's id, only while still queued. */
export interface GoalCancellation {
  execution: OpenExecution;
  contactId: number;
  eventId: number;
  at: string;
}

export interface ProcessingCommit {
  event: EventRecord;
  executions: ExecutionRecord[];
  contact?: ContactEventUpdate;
  /** Executions the event's exits cancel (each conditioned on being queued still). */
  cancellations?: GoalCancellation[];
}

/**
 * `moved`: these cancellations found their execution no longer queued (claimed, or ended): nothing was written.
 * `contact_changed`: a conversion was counted meanwhile (or the contact is gone): read the contact again.
 */
export type CommitOutcome = 'committed' | 'already_processed' | 'id_taken' | 'contact_changed' | { moved: number[] };

export interface ProcessingStore {
  /** The contact holding this e-mail or client_contact_id (one read of its lock). */
  findContactId(clientId: number, ref: { email: string } | { uid: string }): Promise<number | undefined>;
  /**
   * The contact (when an id is given), settings, profile and these workflows' customizations: one request. Processing
   * asks for every catalog workflow's customization, as any may name the event among its exit events.
   */
  loadContext(
    clientId: number,
    contactId: number | undefined,
    workflowIds: readonly number[],
  ): Promise<ProcessingContext>;
  /**
   * One transaction: the executions created, the event stored as processed (only while it is still queued) and
   * the contact's figures. `id_taken`: a drawn execution id exists already; draw again.
   */
  commit(commit: ProcessingCommit): Promise<CommitOutcome>;
}
