import type { EventRecord } from '../events/event-record.js';
import type { ExecutionRecord } from '../executions/execution-record.js';
import type { SentEmailLogRecord, SentEmailRecord } from '../sent-emails/sent-email-record.js';
import type { ActivityPosition } from './activity-position.js';

/** A recorded item of a contact's history, by its position (the subscription state is the contact's, not recorded). */
export type HistoryEntry = ActivityPosition & { kind: 'event' | 'execution' | 'sent_email' };

/** The event fields the timeline shows: no payload, metadata, address or uid (GET /client/events/{id} has them). */
export const ACTIVITY_EVENT_FIELDS = [
  'id',
  'type',
  'action',
  'feature',
  'plan',
  'source',
  'status',
  'amount',
  'upgrade',
  'external_id',
  'ts',
  'processed_at',
  'process_error',
  'execution_ids',
  'created_at',
] as const satisfies readonly (keyof EventRecord)[];
export type ActivityEvent = Pick<EventRecord, (typeof ACTIVITY_EVENT_FIELDS)[number]>;

/** The execution fields the timeline shows (not the event data it copied, nor its claim). */
export const ACTIVITY_EXECUTION_FIELDS = [
  'id',
  'workflow_id',
  'event_id',
  'status',
  'reason',
  'is_test',
  'attempt',
  'retried_from',
  'scheduled_for',
  'processed_at',
  'sent_email_id',
  // A journey's send step: its run, step and version (absent on the 8 system workflows' executions).
  'run_id',
  'step_id',
  'journey_version',
  // A broadcast's recipient (workflow_id 0).
  'broadcast_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ExecutionRecord)[];
export type ActivityExecution = Pick<ExecutionRecord, (typeof ACTIVITY_EXECUTION_FIELDS)[number]>;

/** The sent-email fields the timeline shows: no bodies (GET /client/sent-emails/{id} gives those). */
export const ACTIVITY_SENT_EMAIL_FIELDS = [
  'id',
  'execution_id',
  'workflow_id',
  'email_template_id',
  'email_template_name',
  'to_email',
  'subject',
  'provider_message_id',
  'status',
  'status_updated_at',
  'broadcast_id',
  'created_at',
] as const satisfies readonly (keyof SentEmailRecord)[];
export type ActivitySentEmail = Pick<SentEmailRecord, (typeof ACTIVITY_SENT_EMAIL_FIELDS)[number]>;

/** The records a page of entries names; an entry whose record is gone is absent. */
export interface ActivityRecords {
  events: Map<number, ActivityEvent>;
  executions: Map<number, ActivityExecution>;
  /** Each e-mail with its logs, oldest first. */
  sentEmails: Map<string, { email: ActivitySentEmail; logs: SentEmailLogRecord[] }>;
}

/** The reads of `GET /client/contacts/{id}/activity` (docs/decisions/0080-contact-activity-timeline.md "Contact activity timeline"). */
export interface ContactActivityStore {
  /**
   * The contact's history entries (processed events, executions, sent e-mails) strictly older than `before`, newest
   * first, at most `limit`; `more` when older ones remain.
   */
  entries(
    clientId: number,
    contactId: number,
    page: { before?: ActivityPosition; limit: number },
  ): Promise<{ entries: HistoryEntry[]; more: boolean }>;
  /** The records the entries name, sent e-mails with their logs, read in one wave. */
  records(clientId: number, entries: readonly HistoryEntry[]): Promise<ActivityRecords>;
  /**
   * The names of the client's running (live or paused) journeys by id, from its journey index (one read). An archived
   * journey has left the index and is not named.
   */
  journeyNames(clientId: number): Promise<ReadonlyMap<number, string>>;
}
