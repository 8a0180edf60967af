import { createHash } from 'node:crypto';
import { SENT_STATUS_TEXT } from '../sent-emails/sent-email-record.js';
import { STATUS_TEXT, type ExecutionStatus } from '../executions/execution-record.js';
import { factIdentity, factTime, unsubscribeSourceOf, type WebhookFact } from './facts.js';
import { erasedWebhookPayload } from './erased-payload.js';
import type { EventFacts, SentEmailFacts, WebhookMessageRecord } from './webhook-outbox.js';

/** `webhook-id` of a fact: `msg_` + 32 hex characters of a hash of its identity, so a re-read fact keeps its id. */
export const webhookMessageIdOf = (fact: WebhookFact): string =>
  `msg_${createHash('sha256').update(factIdentity(fact)).digest('hex').slice(0, 32)}`;

/** What a payload may add from other records: the sent e-mail of an e-mail fact, the triggering event. */
export interface FactContext {
  sentEmail?: SentEmailFacts;
  event?: EventFacts;
  /** When the fact's contact was erased (a contact fact read from the stream after its erasure). */
  contactErasedAt?: string;
}

const eventRef = (event: EventFacts | undefined, id: number | null | undefined) =>
  id == null ? null : { id, idempotency_key: event?.idempotency_key ?? null, type: event?.type ?? null };

/**
 * The message of a fact: `{ type, id, created_at, data }`. `data` names this service's ids — sent
 * e-mail, execution, workflow, contact, and the triggering event with its idempotency key — and carries the resource's
 * `status` and times, so a receiver can tie each fact to what it reported and order facts itself. No bodies.
 */
export function buildWebhookMessage(fact: WebhookFact, context: FactContext): WebhookMessageRecord {
  const id = webhookMessageIdOf(fact);
  const createdAt = factTime(fact);
  const body = { type: fact.type, id, created_at: createdAt, data: dataOf(fact, context) };
  const contactId = contactOf(fact, context);
  // A fact the stream hands over after its contact's erasure (a backlog, a retried batch) carries the old values in its
  // image: it is stored and sent as an erased message would be (ids only), never with them.
  const erasedAt = context.contactErasedAt ?? context.sentEmail?.erased_at;
  const payload = JSON.stringify(body);
  return {
    id,
    client_id: fact.client_id,
    type: fact.type,
    created_at: createdAt,
    payload: erasedAt ? erasedWebhookPayload(payload) : payload,
    ...(contactId != null ? { contact_id: contactId } : {}),
    ...(erasedAt ? { erased_at: erasedAt } : {}),
  };
}

/** The contact a fact is about (what its erasure must reach). */
function contactOf(fact: WebhookFact, context: FactContext): number | null | undefined {
  switch (fact.kind) {
    case 'email':
      return context.sentEmail?.contact_id;
    case 'contact':
      return fact.contact.id;
    case 'execution':
      return fact.execution.contact_id;
    case 'domain':
    case 'sending':
    case 'broadcast':
      return undefined;
    case 'journey':
      return fact.run.contact_id;
  }
}

function dataOf(fact: WebhookFact, context: FactContext): Record<string, unknown> {
  switch (fact.kind) {
    case 'email': {
      const { log } = fact;
      const email = context.sentEmail;
      return {
        sent_email_id: fact.sent_email_id,
        status: SENT_STATUS_TEXT[log.status],
        occurred_at: log.created_at,
        execution_id: email?.execution_id ?? null,
        workflow_id: email?.workflow_id ?? null,
        contact_id: email?.contact_id ?? null,
        email_template_id: email?.email_template_id ?? null,
        from_email: email?.from_email ?? null,
        to_email: email?.to_email ?? null,
        subject: email?.subject ?? null,
        provider_message_id: log.provider_message_id ?? email?.provider_message_id ?? null,
        sent_email_created_at: email?.created_at ?? null,
        event: eventRef(context.event, email?.event_id),
        ...(fact.type === 'email.opened' || fact.type === 'email.clicked'
          ? {
              is_bot: log.is_bot === true,
              bot_reason: log.bot_reason ?? null,
              user_agent: log.user_agent ?? null,
              ip_address: log.ip_address ?? null,
            }
          : {}),
        ...(fact.type === 'email.clicked' ? { url: log.url ?? null } : {}),
        ...(fact.type === 'email.bounced'
          ? { bounce_type: log.bounce_type ?? null, diagnostic: log.detail ?? null }
          : {}),
        ...(fact.type === 'email.complained' || fact.type === 'email.delivery_delayed' || fact.type === 'email.failed'
          ? { detail: log.detail ?? null }
          : {}),
      };
    }
    case 'contact': {
      const c = fact.contact;
      return {
        contact: {
          id: c.id,
          email: c.email,
          client_contact_id: c.client_contact_id ?? null,
          first_name: c.first_name ?? null,
          last_name: c.last_name ?? null,
          is_subscribed: c.is_subscribed,
          unsubscribed_at: c.unsubscribed_at ?? null,
          unsubscribe_reason: c.unsubscribe_reason ?? null,
          updated_at: c.updated_at,
        },
        ...(fact.type === 'contact.unsubscribed'
          ? { reason: c.unsubscribe_reason ?? null, source: unsubscribeSourceOf(c.unsubscribe_reason) }
          : {}),
        ...(fact.type === 'contact.topic_changed' ? { topics: fact.topics ?? [] } : {}),
      };
    }
    case 'execution': {
      const e = fact.execution;
      return {
        execution_id: e.id,
        status: STATUS_TEXT[e.status as ExecutionStatus] ?? String(e.status),
        reason: e.reason ?? null,
        workflow_id: e.workflow_id,
        contact_id: e.contact_id,
        sent_email_id: e.sent_email_id ?? null,
        is_test: e.is_test,
        event: eventRef(context.event, e.event_id),
        created_at: e.created_at,
        updated_at: e.updated_at,
      };
    }
    case 'domain': {
      const d = fact.domain;
      return {
        domain: {
          id: d.id,
          domain: d.domain,
          status: d.status,
          failure_reason: d.failure_reason,
          verified_at: d.verified_at,
        },
      };
    }
    case 'sending':
      return { sending: fact.sending };
    case 'broadcast': {
      const b = fact.broadcast;
      return {
        broadcast_id: b.id,
        name: b.name,
        audience: b.audience,
        category: b.category,
        recipients: b.recipients,
        status: fact.type === 'broadcast.started' ? 'snapshotting' : 'sent',
        started_at: b.started_at,
        completed_at: b.completed_at,
      };
    }
    case 'journey': {
      const r = fact.run;
      // A system journey (1–8) runs as a lone execution: no run (run_id null), its execution named instead.
      const ids = {
        run_id: r.id,
        execution_id: r.execution_id,
        journey_id: r.journey_id,
        journey_version: r.version,
        contact_id: r.contact_id,
        seq: fact.seq,
        occurred_at: fact.at,
      };
      if (fact.type === 'journey.entered')
        return {
          ...ids,
          step_id: r.step_id,
          key_value: r.key_value ?? null,
          event: eventRef(context.event, r.event_id),
        };
      if (fact.type === 'journey.step_completed')
        return { ...ids, step_id: fact.step?.step ?? null, via: fact.step?.via ?? null };
      return { ...ids, step_id: r.step_id, status: r.status, reason: r.reason ?? null };
    }
  }
}
