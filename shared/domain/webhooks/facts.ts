import type { RunEndReason, RunPathEntry, RunStatus } from '../runs/run-record.js';
import type { SentEmailLogRecord } from '../sent-emails/sent-email-record.js';
import type { WebhookEventType } from './event-types.js';

/**
 * A fact the table recorded that an endpoint may be told of, read from the table's change stream
 * (shared/adapters/dynamo/webhook-stream-facts.ts decides which changes are facts). Each names the client and carries
 * what its record held, so most payload fields need no read.
 */
export type WebhookFact =
  | EmailFact
  | ContactFact
  | ExecutionFact
  | DomainFact
  | SendingFact
  | JourneyFact
  | BroadcastFact;

/**
 * A broadcast's head moved: scheduled → snapshotting (started: its audience is being read) or → sent (completed: every
 * recipient has ended). Each move is one conditional update of the head, so each is one change: one fact.
 */
export interface BroadcastFact {
  kind: 'broadcast';
  type: 'broadcast.started' | 'broadcast.completed';
  client_id: number;
  broadcast: BroadcastFactFields;
  at: string;
}

export interface BroadcastFactFields {
  id: number;
  name: string;
  audience: Record<string, unknown>;
  category: string;
  /** Recipients written by the snapshot: null while it runs (started), the total once sent. */
  recipients: number | null;
  started_at: string | null;
  completed_at: string | null;
}

/** A status log written on a sent e-mail: sent, delivered, delayed, bounced, complained, opened, clicked, failed. */
export interface EmailFact {
  kind: 'email';
  type: Extract<WebhookEventType, `email.${string}`>;
  client_id: number;
  sent_email_id: string;
  log: SentEmailLogRecord;
}

/**
 * A contact's subscription changed: unsubscribed (by a link, SES, the suppression rules or the API) or subscribed
 * again; or, with `is_subscribed` unchanged, its choice of one or more topics (through the API, a topic's
 * one-click link, the preference page) — `topics` lists those that changed.
 */
export interface ContactFact {
  kind: 'contact';
  type: 'contact.unsubscribed' | 'contact.subscribed' | 'contact.topic_changed';
  client_id: number;
  contact: ContactFactFields;
  topics?: { topic_id: number; is_subscribed: boolean }[];
}

export interface ContactFactFields {
  id: number;
  email: string;
  client_contact_id?: string;
  first_name?: string;
  last_name?: string;
  is_subscribed: boolean;
  unsubscribed_at?: string;
  unsubscribe_reason?: string;
  updated_at: string;
}

/** An execution ended failed (4) or skipped (6). */
export interface ExecutionFact {
  kind: 'execution';
  type: 'execution.failed' | 'execution.skipped';
  client_id: number;
  execution: ExecutionFactFields;
}

export interface ExecutionFactFields {
  id: number;
  workflow_id: number;
  contact_id: number;
  event_id: number | null;
  status: number;
  reason?: string;
  is_test: boolean;
  sent_email_id?: string;
  created_at: string;
  updated_at: string;
}

/** A sending domain became verified, or failed (its failure_reason says why). */
export interface DomainFact {
  kind: 'domain';
  type: 'domain.verified' | 'domain.failed';
  client_id: number;
  domain: DomainFactFields;
}

export interface DomainFactFields {
  id: number;
  domain: string;
  status: 'verified' | 'failed';
  failure_reason: string | null;
  verified_at: string | null;
  /** When it became verified or failed. */
  at: string;
}

/** SES paused the client's tenant (its reputation policy or an operator), or enabled it again. */
export interface SendingFact {
  kind: 'sending';
  type: 'sending.paused' | 'sending.resumed';
  client_id: number;
  sending: { tenant: string | null; paused_at: string | null; reason: string | null };
  /** When it was paused, or when the change that resumed it was written. */
  at: string;
  /** When the pause began (the pause it starts or ends): what makes a fact read twice the same fact. */
  pause_began_at: string;
}

/**
 * A journey's run: it started (entered), left a step (one fact per path entry a write added, several when a
 * transition passed instant steps), or ended (exited: completed, exited, or ended by the service). A system journey
 * (1–8) has no run: its execution is its run, and its changes make the same three facts (systemJourneyFactsOf).
 */
export interface JourneyFact {
  kind: 'journey';
  type: 'journey.entered' | 'journey.step_completed' | 'journey.exited';
  client_id: number;
  run: JourneyRunFields;
  /** The step left (step_completed). */
  step?: RunPathEntry;
  /** The seq the fact belongs to: 1 at entry, the leaving transition's for a step, the ending write's at the end. */
  seq: number;
  at: string;
}

/**
 * Why a run ended: a client journey's run-end reasons, and those only a system journey's execution gives (its send
 * skipped, or its execution cancelled for being queued too long, or for a reason this service adds later).
 */
export type JourneyExitReason = RunEndReason | 'send_skipped' | 'queue_timeout' | 'cancelled';

export interface JourneyRunFields {
  /** The run; null for a system journey, which runs as a lone execution. */
  id: number | null;
  /** The execution a system journey runs as; null for a client journey's run. */
  execution_id: number | null;
  journey_id: number;
  /** The journey version the run follows; null for a system journey (it has no versions). */
  version: number | null;
  contact_id: number;
  event_id: number | null;
  key_value?: string;
  status: RunStatus;
  reason?: JourneyExitReason;
  step_id: string;
  updated_at: string;
  /** The image has no trigger event: the contact was erased (the run keeps ids only). */
  erased: boolean;
}

/** How a contact came to be unsubscribed, from the reason the service's own writers record. */
export type UnsubscribeSource = 'link' | 'ses' | 'suppression' | 'api';

const SOURCE_OF_REASON: Record<string, UnsubscribeSource> = {
  unsubscribe_link: 'link',
  ses_unsubscribe: 'ses',
  hard_bounce: 'suppression',
  complaint: 'suppression',
  transient_bounces: 'suppression',
};

/**
 * The service writes these reasons itself (one-click link, SES's list-unsubscribe, the suppression rules); any other
 * reason, or none, came through the API (a PATCH, a subscription update, an import or an event).
 */
export const unsubscribeSourceOf = (reason: string | undefined): UnsubscribeSource =>
  (reason && SOURCE_OF_REASON[reason]) || 'api';

/** A stable identity per fact: the same change read twice (a stream batch retried) yields the same `webhook-id`. */
export function factIdentity(fact: WebhookFact): string {
  switch (fact.kind) {
    case 'email':
      return `${fact.client_id}:sent:${fact.sent_email_id}:log:${fact.log.id}`;
    case 'contact':
      if (fact.type === 'contact.topic_changed')
        return `${fact.client_id}:contact:${fact.contact.id}:topics:${fact.contact.updated_at}`;
      return fact.type === 'contact.unsubscribed'
        ? `${fact.client_id}:contact:${fact.contact.id}:unsubscribed:${fact.contact.unsubscribed_at ?? fact.contact.updated_at}`
        : `${fact.client_id}:contact:${fact.contact.id}:subscribed:${fact.contact.updated_at}`;
    case 'execution':
      return `${fact.client_id}:execution:${fact.execution.id}:${fact.execution.status}`;
    case 'domain':
      return `${fact.client_id}:domain:${fact.domain.id}:${fact.domain.status}`;
    case 'sending':
      return `${fact.client_id}:sending:${fact.type}:${fact.pause_began_at}`;
    case 'broadcast':
      return `${fact.client_id}:broadcast:${fact.broadcast.id}:${fact.type === 'broadcast.started' ? 'started' : 'completed'}`;
    case 'journey': {
      // A run enters and ends once; it leaves a step once (no cycles) at the seq of the transition that left it. A
      // system journey's execution is its run, named apart (execution and run ids are separate sequences).
      const run = fact.run.id !== null ? `run:${fact.run.id}` : `journey-execution:${fact.run.execution_id}`;
      return fact.type === 'journey.step_completed'
        ? `${fact.client_id}:${run}:step:${fact.seq}:${fact.step?.step ?? ''}`
        : `${fact.client_id}:${run}:${fact.type === 'journey.entered' ? 'entered' : 'exited'}`;
    }
  }
}

/** When the fact happened. */
export function factTime(fact: WebhookFact): string {
  switch (fact.kind) {
    case 'email':
      return fact.log.created_at;
    case 'contact':
      return fact.type === 'contact.unsubscribed'
        ? (fact.contact.unsubscribed_at ?? fact.contact.updated_at)
        : fact.contact.updated_at;
    case 'execution':
      return fact.execution.updated_at;
    case 'domain':
      return fact.domain.at;
    case 'sending':
    case 'journey':
    case 'broadcast':
      return fact.at;
  }
}

/** Opens and clicks a machine made (bot detection); an endpoint may take humans only. */
export const isBotFact = (fact: WebhookFact): boolean => fact.kind === 'email' && fact.log.is_bot === true;
