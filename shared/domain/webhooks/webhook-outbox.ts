import type { EventRecord } from '../events/event-record.js';
import type { SentEmailRecord } from '../sent-emails/sent-email-record.js';
import type { WebhookEventType } from './event-types.js';
import type { WebhookRecord } from './webhook-store.js';

/** How long messages and attempts are kept (replay, the attempts log): 30 days. */
export const WEBHOOK_RETENTION_DAYS = 30;

/** One event as every endpoint receives it: the signed body is `payload`, its `webhook-id` is `id`. */
export interface WebhookMessageRecord {
  /** `msg_` + 32 hex characters, derived from the fact: the same fact always has the same id. */
  id: string;
  client_id: number;
  type: WebhookEventType;
  created_at: string;
  /** The JSON body `{ type, id, created_at, data }`, exactly as signed. */
  payload: string;
  /** The contact the fact is about: the erasure finds the message by it (gsi2) and keeps only ids in `payload`. */
  contact_id?: number;
  /** When its contact's erasure redacted `payload` (erased-payload.ts). */
  erased_at?: string;
}

/** One POST of one message to one endpoint, and what came of it. */
export interface WebhookAttemptRecord {
  /** Time-ordered: `att_` + 9 base-36 digits of epoch ms + 8 random hex characters. */
  id: string;
  client_id: number;
  webhook_id: number;
  message_id: string;
  event_type: string;
  /** 1 for the first attempt of a chain, up to WEBHOOK_MAX_ATTEMPTS. */
  attempt: number;
  /** Part of a chain a client asked for (replay). */
  replay: boolean;
  attempted_at: string;
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  /** When the next attempt is due; null after a success or the last attempt. */
  next_attempt_at: string | null;
}

/** What an attempt changes on its endpoint's health. */
export type EndpointHealthChange =
  | { kind: 'none' }
  /** The first failure since the last success: `failing_since`. */
  | { kind: 'failing'; since: string }
  /**
   * A success after failures: `failing_since` cleared; with `slowSince`, the success's pace changed too (a string
   * sets `slow_since`, null removes it).
   */
  | { kind: 'recovered'; slowSince?: string | null }
  /** A success of an endpoint that was not failing, whose pace changed: `slow_since` set (a string) or removed (null). */
  | { kind: 'pace'; slowSince: string | null }
  /** Failing for the whole window: disabled, once (only if still enabled and failing since `since`). */
  | { kind: 'disable'; since: string; at: string };

/** The sent e-mail fields a payload names (no bodies). */
export type SentEmailFacts = Pick<
  SentEmailRecord,
  | 'id'
  | 'client_id'
  | 'contact_id'
  | 'execution_id'
  | 'workflow_id'
  | 'email_template_id'
  | 'from_email'
  | 'to_email'
  | 'subject'
  | 'status'
  | 'created_at'
  | 'provider_message_id'
> & { event_id?: number | null /** Set when its contact was erased. */; erased_at?: string };

export type EventFacts = Pick<EventRecord, 'id' | 'client_id' | 'type' | 'idempotency_key' | 'created_at'>;

export interface ClientRef<T> {
  client_id: number;
  id: T;
}

/**
 * The webhook outbox: endpoints as deliveries see them, the facts' context, the messages, and the
 * attempts log.
 */
export interface WebhookOutbox {
  /** The client's endpoints, as the producer and deliveries read them (a per-container cache may serve it). */
  endpointsOf(clientId: number): Promise<WebhookRecord[]>;
  /** The sent e-mails named, in one wave (absent ones are left out). */
  sentEmails(refs: readonly ClientRef<string>[]): Promise<SentEmailFacts[]>;
  /** The events named, in one wave (absent ones are left out). */
  events(refs: readonly ClientRef<number>[]): Promise<EventFacts[]>;
  /** Of the contacts named, those an erasure replaced by its tombstone: `<client>:<contact>` → when, in one wave. */
  erasedContacts(refs: readonly ClientRef<number>[]): Promise<Map<string, string>>;
  /** Stores messages (a message stored again is the same message). */
  putMessages(messages: readonly WebhookMessageRecord[]): Promise<void>;
  message(clientId: number, messageId: string): Promise<WebhookMessageRecord | undefined>;
  /**
   * Logs an attempt and applies its endpoint health change; `disabled` is true only for the one attempt whose
   * change disabled the endpoint (so its client is told once).
   */
  recordAttempt(attempt: WebhookAttemptRecord, change: EndpointHealthChange): Promise<{ disabled: boolean }>;
  /** The client was told the endpoint is disabled: `disabled_notice_pending` goes (one UpdateItem). */
  disabledNoticeSent(clientId: number, webhookId: number): Promise<void>;
  /** An endpoint's attempts, newest first; `before` is the last attempt id of the page before. */
  attempts(
    clientId: number,
    webhookId: number,
    page: { limit: number; before?: string },
  ): Promise<{ attempts: WebhookAttemptRecord[]; more: boolean }>;
  attempt(clientId: number, webhookId: number, attemptId: string): Promise<WebhookAttemptRecord | undefined>;
  /**
   * Counts one replay of the attempt against both caps, atomically: the attempt's own count below `perAttempt`, and
   * the endpoint's count of the window starting at `window.startsAt` below `perWindow`. Nothing is counted when either
   * is reached; the answer says which.
   */
  claimReplay(
    clientId: number,
    webhookId: number,
    attemptId: string,
    caps: { perAttempt: number; perWindow: number; window: { startsAt: number; expiresAt: number } },
  ): Promise<'claimed' | 'attempt_cap' | 'endpoint_cap'>;
}
