import * as z from '../../validation/zod.js';
import { STATUS_TEXT } from '../executions/execution-record.js';
import { ExecutionStatusValue, JourneyStepFields, journeyStepFieldsOf } from '../executions/execution-view.js';
import { SENT_STATUS_TEXT } from '../sent-emails/sent-email-record.js';
import {
  effectiveStatus,
  SentEmailLogView,
  sentStatus,
  sentStatusText,
  toSentEmailLogView,
} from '../sent-emails/sent-email-view.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { findWorkflow } from '../workflows/catalog.js';
import type { ActivityEvent, ActivityExecution, ActivitySentEmail } from './activity-store.js';
import type { SentEmailLogRecord } from '../sent-emails/sent-email-record.js';
import type { ContactRecord } from './contact-store.js';
import { TOPIC_CHOICE_SOURCES, type TopicChoiceChange } from '../topics/contact-topics.js';

const at = UtcTimestamp.check(
  z.meta({
    description:
      'When the service recorded it (`created_at`; for `subscription`: `unsubscribed_at`; for `topic`: when the choice was made)',
  }),
);
const label = z.nullable(z.string());
const workflowId = z
  .int()
  .check(
    z.gte(0),
    z.meta({ description: "The workflow (1–8), the journey (1000 or more), or 0 for a broadcast's recipient" }),
  );
const broadcastId = z
  .nullable(z.int().check(z.gte(1)))
  .check(z.meta({ description: 'The broadcast it was sent for (GET /client/broadcasts/{id}); null otherwise' }));
const workflowName = z.nullable(z.string()).check(
  z.meta({
    description:
      "The catalog name of the workflow, or the journey's name (a journey's id is 1000 or more; null once it is archived)",
  }),
);

/** Journey id → name, of the client's running journeys (activity-store.ts `journeyNames`). */
export type JourneyNames = ReadonlyMap<number, string>;

/** A system workflow's catalog name, or a client journey's name while the journey is live or paused. */
const workflowNameOf = (workflowId: number, journeys: JourneyNames | undefined): string | null =>
  findWorkflow(workflowId)?.name ?? journeys?.get(workflowId) ?? null;

/** A processed event of the contact (OpenAPI `ActivityEvent`); the whole event is GET /client/events/{id}. */
export const ActivityEventItem = z
  .object({
    kind: z.literal('event'),
    at,
    id: z.int().check(z.gte(1)),
    type: z.string(),
    action: label,
    feature: label,
    plan: label,
    source: label,
    status: label.check(z.meta({ description: "The caller's label" })),
    amount: z.nullable(z.number()),
    upgrade: z.nullable(z.boolean()),
    external_id: label,
    ts: UtcTimestamp.check(z.meta({ description: 'When the event happened, as the caller said' })),
    processed_at: z.nullable(UtcTimestamp),
    process_error: label,
    execution_ids: z.array(z.int()).check(z.meta({ description: 'The executions the event started' })),
  })
  .check(z.meta({ id: 'ActivityEvent', description: 'An event the contact took part in, once processed.' }));

/** One run of a workflow for the contact (OpenAPI `ActivityExecution`). */
export const ActivityExecutionItem = z
  .object({
    kind: z.literal('execution'),
    at,
    id: z.int().check(z.gte(1)),
    workflow_id: workflowId,
    workflow_name: workflowName,
    broadcast_id: broadcastId,
    event_id: z.nullable(z.int()),
    status: ExecutionStatusValue,
    status_text: z.enum(Object.values(STATUS_TEXT) as [string, ...string[]]),
    reason: label.check(
      z.meta({ description: 'Why it failed, was skipped, cancelled or deferred (or which rule chose its time)' }),
    ),
    is_test: z.boolean(),
    attempt: z.int().check(z.gte(1)),
    retried_from: z.nullable(z.int()),
    scheduled_for: UtcTimestamp,
    processed_at: z.nullable(UtcTimestamp),
    sent_email_id: z.nullable(z.guid()),
    ...JourneyStepFields,
    updated_at: UtcTimestamp,
  })
  .check(
    z.meta({
      id: 'ActivityExecution',
      description: "A workflow run (or a journey's send step) for the contact, with its status now.",
    }),
  );

/** An e-mail sent to the contact with its status logs, without bodies (OpenAPI `ActivitySentEmail`). */
export const ActivitySentEmailItem = z
  .object({
    kind: z.literal('sent_email'),
    at,
    id: z.guid(),
    execution_id: z.int().check(z.gte(1)),
    workflow_id: workflowId,
    workflow_name: workflowName,
    broadcast_id: broadcastId,
    email_template_id: z.int().check(z.gte(1)),
    email_template_name: z.string(),
    to_email: z.string(),
    subject: z.string(),
    provider_message_id: z.nullable(z.string()),
    status: sentStatus.check(z.meta({ description: 'The highest-ranked status reached; it never moves backwards' })),
    status_text: sentStatusText,
    status_updated_at: UtcTimestamp,
    logs: z
      .array(SentEmailLogView)
      .check(z.meta({ description: 'Oldest first, as GET /client/sent-emails/{id} shows them' })),
  })
  .check(
    z.meta({
      id: 'ActivitySentEmail',
      description: 'An e-mail sent to the contact; its bodies are GET /client/sent-emails/{id}.',
    }),
  );

/** The contact's unsubscription in force (OpenAPI `ActivitySubscription`): the only subscription change on record. */
export const ActivitySubscriptionItem = z
  .object({
    kind: z.literal('subscription'),
    at,
    is_subscribed: z.literal(false),
    reason: label.check(
      z.meta({
        description: "The contact's `unsubscribe_reason`, e.g. `unsubscribe_link`, `hard_bounce`, `complaint`",
      }),
    ),
  })
  .check(
    z.meta({
      id: 'ActivitySubscription',
      description:
        'The contact is unsubscribed since `at` (the first unsubscription still in force). Earlier changes and ' +
        "resubscriptions are not recorded; an unsubscribe through an e-mail also shows as that e-mail's `unsubscribed` log.",
    }),
  );

/** The contact's last choice about one topic (OpenAPI `ActivityTopic`), at the time it was made. */
export const ActivityTopicItem = z
  .object({
    kind: z.literal('topic'),
    at,
    topic_id: z.int().check(z.gte(1), z.meta({ description: 'The topic (GET /client/topics/{id})' })),
    is_subscribed: z
      .boolean()
      .check(z.meta({ description: 'false: the contact left the topic; true: it joined it (again)' })),
    via: z.enum(TOPIC_CHOICE_SOURCES).check(
      z.meta({
        description:
          'How: `api` (PATCH /client/contacts/{id}/subscription with topic_id), `one_click` (the one-click link of a ' +
          "topic's e-mail, RFC 8058), `preference_page` (the hosted preference page's save)",
      }),
    ),
  })
  .check(
    z.meta({
      id: 'ActivityTopic',
      description:
        "The contact's choice about one topic in force, at the time it was made; an earlier choice about the same topic " +
        "is replaced by the later one. A one-click or preference-page change also shows as that e-mail's `unsubscribed` log.",
    }),
  );

/** One item of a contact's activity timeline, told apart by `kind`. */
export const ActivityItem = z
  .discriminatedUnion('kind', [
    ActivityEventItem,
    ActivityExecutionItem,
    ActivitySentEmailItem,
    ActivitySubscriptionItem,
    ActivityTopicItem,
  ])
  .check(z.meta({ id: 'ActivityItem' }));
export type ActivityItem = z.output<typeof ActivityItem>;

/** A processed event as a timeline item. */
export function eventItem(e: ActivityEvent): z.output<typeof ActivityEventItem> {
  return {
    kind: 'event',
    at: e.created_at,
    id: e.id,
    type: e.type,
    action: e.action ?? null,
    feature: e.feature ?? null,
    plan: e.plan ?? null,
    source: e.source ?? null,
    status: e.status ?? null,
    amount: e.amount ?? null,
    upgrade: e.upgrade ?? null,
    external_id: e.external_id ?? null,
    ts: e.ts,
    processed_at: e.processed_at ?? null,
    process_error: e.process_error ?? null,
    execution_ids: e.execution_ids ?? [],
  };
}

/** An execution as a timeline item; `journeys` names a client journey's. */
export function executionItem(e: ActivityExecution, journeys?: JourneyNames): z.output<typeof ActivityExecutionItem> {
  return {
    kind: 'execution',
    at: e.created_at,
    id: e.id,
    workflow_id: e.workflow_id,
    workflow_name: workflowNameOf(e.workflow_id, journeys),
    broadcast_id: e.broadcast_id ?? null,
    event_id: e.event_id,
    status: e.status,
    status_text: STATUS_TEXT[e.status],
    reason: e.reason ?? null,
    is_test: e.is_test,
    attempt: e.attempt,
    retried_from: e.retried_from ?? null,
    scheduled_for: e.scheduled_for,
    processed_at: e.processed_at ?? null,
    sent_email_id: e.sent_email_id ?? null,
    ...journeyStepFieldsOf(e),
    updated_at: e.updated_at,
  };
}

/** A sent e-mail and its logs (oldest first) as a timeline item; its status is the effective one. */
export function sentEmailItem(
  e: ActivitySentEmail,
  logs: readonly SentEmailLogRecord[],
  journeys?: JourneyNames,
): z.output<typeof ActivitySentEmailItem> {
  const current = effectiveStatus(e, logs);
  return {
    kind: 'sent_email',
    at: e.created_at,
    id: e.id,
    execution_id: e.execution_id,
    workflow_id: e.workflow_id,
    workflow_name: workflowNameOf(e.workflow_id, journeys),
    broadcast_id: e.broadcast_id ?? null,
    email_template_id: e.email_template_id,
    email_template_name: e.email_template_name,
    to_email: e.to_email,
    subject: e.subject,
    provider_message_id: e.provider_message_id ?? null,
    status: current.status,
    status_text: SENT_STATUS_TEXT[current.status],
    status_updated_at: current.at,
    logs: logs.map(toSentEmailLogView),
  };
}

/** The contact's unsubscription in force, as a timeline item at `unsubscribed_at`; undefined while it is subscribed. */
export function subscriptionItem(contact: ContactRecord): z.output<typeof ActivitySubscriptionItem> | undefined {
  const since = contact.unsubscribed_at !== undefined ? Date.parse(contact.unsubscribed_at) : Number.NaN;
  if (contact.is_subscribed || Number.isNaN(since)) return undefined;
  return {
    kind: 'subscription',
    at: new Date(since).toISOString(),
    is_subscribed: false,
    reason: contact.unsubscribe_reason ?? null,
  };
}

/** A topic choice with its time, as a timeline item. */
export const topicItem = (change: TopicChoiceChange): z.output<typeof ActivityTopicItem> => ({
  kind: 'topic',
  at: change.at,
  topic_id: change.topicId,
  is_subscribed: change.subscribed,
  via: change.by,
});
