import { topicIdOfAttribute } from '../../domain/topics/contact-topics.js';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { RunPathEntry } from '../../domain/runs/run-record.js';
import { RUN_ENDED_STATUSES, type RunStatus } from '../../domain/runs/run-record.js';
import { EXECUTION_STATUS, type ExecutionStatus } from '../../domain/executions/execution-record.js';
import { SENT_STATUS, type SentEmailLogRecord, type SentStatus } from '../../domain/sent-emails/sent-email-record.js';
import type {
  BroadcastFact,
  ContactFactFields,
  EmailFact,
  ExecutionFactFields,
  JourneyFact,
  JourneyRunFields,
  SendingFact,
  WebhookFact,
} from '../../domain/webhooks/facts.js';
import { systemJourneyFactsOf, type ExecutionImage } from '../../domain/webhooks/system-journey-facts.js';
import { stripKeys } from './items.js';
import { keys } from './keys.js';

/** Which status log is which webhook event; queued (the claim's) and unsubscribed (the contact's own fact) are none. */
const EMAIL_EVENT_OF: Partial<Record<SentStatus, EmailFact['type']>> = {
  [SENT_STATUS.sent]: 'email.sent',
  [SENT_STATUS.delivered]: 'email.delivered',
  [SENT_STATUS.delivery_delayed]: 'email.delivery_delayed',
  [SENT_STATUS.bounced]: 'email.bounced',
  [SENT_STATUS.complained]: 'email.complained',
  [SENT_STATUS.opened]: 'email.opened',
  [SENT_STATUS.clicked]: 'email.clicked',
  [SENT_STATUS.rejected]: 'email.failed',
  [SENT_STATUS.failed]: 'email.failed',
};

type Image = Record<string, unknown>;

const imageOf = (image: Record<string, LambdaAttributeValue> | undefined): Image | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

/**
 * The facts in a batch of the table's change stream (NEW_AND_OLD_IMAGES), in stream order:
 * - a status log inserted on a sent e-mail (logs are written once per notification, so once per fact);
 * - a contact whose `is_subscribed` turned false (unsubscribed) or true again (subscribed); else whose topic choices
 *   (`topic_<id>`) changed (topic_changed, listing the changed topics: one fact per write);
 * - an execution that became failed (4) or skipped (6);
 * - a sending domain that became verified or failed;
 * - a client's sender state whose tenant pause appeared (sending.paused) or went (sending.resumed);
 * - a journey run inserted (journey.entered), each path entry a write added (journey.step_completed, in path order),
 *   and the write that ended it (journey.exited), in that order within one record;
 * - a system journey's execution (1–8 run without runs) created, sent and ended: the same three journey facts
 *   (system-journey-facts.ts), after the execution's own fact of the same change;
 * - a broadcast head that moved scheduled → snapshotting (broadcast.started) or to sent (broadcast.completed).
 * Every other change is none. The infra's event source filter lets only these item kinds reach the function.
 */
export function factsOfStreamRecords(records: readonly DynamoDBRecord[]): WebhookFact[] {
  const facts: WebhookFact[] = [];
  for (const record of records) {
    const fact = factOf(record);
    if (fact) facts.push(fact);
    facts.push(...journeyFactsOf(record));
  }
  return facts;
}

function factOf(record: DynamoDBRecord): WebhookFact | undefined {
  if (record.eventName === 'REMOVE') return undefined;
  const next = imageOf(record.dynamodb?.NewImage);
  if (!next || typeof next['pk'] !== 'string' || typeof next['sk'] !== 'string') return undefined;
  const item = keys.changedItemOf(next['pk'], next['sk']);
  if (!item) return undefined;
  const previous = imageOf(record.dynamodb?.OldImage);

  switch (item.kind) {
    case 'sentLog': {
      if (record.eventName !== 'INSERT') return undefined;
      const log = next as unknown as SentEmailLogRecord;
      const type = EMAIL_EVENT_OF[log.status];
      if (!type) return undefined;
      // email.sent is the executor's record of SES accepting the message (no `detail`); SES's own Send notification
      // of the same message, logged beside it with its status text, confirms it and is no second fact.
      if (type === 'email.sent' && log.detail !== undefined) return undefined;
      const fields = stripKeys<Record<string, unknown>>(next);
      return {
        kind: 'email',
        type,
        client_id: item.clientId,
        sent_email_id: item.sentEmailId,
        log: fields as unknown as SentEmailLogRecord,
      };
    }
    case 'contact': {
      if (record.eventName !== 'MODIFY' || !previous) return undefined;
      const was = previous['is_subscribed'];
      const now = next['is_subscribed'];
      const type =
        was !== false && now === false
          ? 'contact.unsubscribed'
          : was === false && now === true
            ? 'contact.subscribed'
            : undefined;
      if (type)
        return { kind: 'contact', type, client_id: item.clientId, contact: contactFields(next, item.contactId) };
      const topics = changedTopics(previous, next);
      if (topics.length === 0) return undefined;
      return {
        kind: 'contact',
        type: 'contact.topic_changed',
        client_id: item.clientId,
        contact: contactFields(next, item.contactId),
        topics,
      };
    }
    case 'execution': {
      const status = next['status'];
      if (status !== EXECUTION_STATUS.failed && status !== EXECUTION_STATUS.skipped) return undefined;
      if (previous && previous['status'] === status) return undefined;
      return {
        kind: 'execution',
        type: status === EXECUTION_STATUS.failed ? 'execution.failed' : 'execution.skipped',
        client_id: item.clientId,
        execution: executionFields(next, item.executionId),
      };
    }
    case 'domain': {
      const status = next['status'];
      if (status !== 'verified' && status !== 'failed') return undefined;
      if (previous && previous['status'] === status) return undefined;
      return {
        kind: 'domain',
        type: status === 'verified' ? 'domain.verified' : 'domain.failed',
        client_id: item.clientId,
        domain: {
          id: item.domainId,
          domain: text(next['domain']) ?? '',
          status,
          failure_reason: text(next['failure_reason']) ?? null,
          verified_at: text(next['verified_at']) ?? null,
          at: text(status === 'verified' ? next['verified_at'] : next['failed_at']) ?? text(next['updated_at']) ?? '',
        },
      };
    }
    case 'sender':
      return sendingFact(item.clientId, previous, next, record.dynamodb?.ApproximateCreationDateTime);
    case 'broadcast':
      return broadcastFact(item.clientId, item.broadcastId, previous, next);
    default:
      return undefined;
  }
}

/**
 * A run's facts from one change: its INSERT enters it; a MODIFY yields one step_completed per path entry beyond the
 * old image's (a transition through instant steps adds several) and, when its status became an ended one, exited.
 * An erasure's write (status ended, `event` removed) is an exited fact with no personal data.
 */
function journeyFactsOf(record: DynamoDBRecord): JourneyFact[] {
  if (record.eventName === 'REMOVE') return [];
  const next = imageOf(record.dynamodb?.NewImage);
  if (!next || typeof next['pk'] !== 'string' || typeof next['sk'] !== 'string') return [];
  const item = keys.changedItemOf(next['pk'], next['sk']);
  const previous = imageOf(record.dynamodb?.OldImage);
  if (item?.kind === 'execution')
    return systemJourneyFactsOf(
      item.clientId,
      executionImageOf(next, item.executionId),
      record.eventName === 'INSERT' || !previous
        ? undefined
        : { status: Number(previous['status']) as ExecutionStatus },
    );
  if (item?.kind !== 'run') return [];
  const run = runFields(next, item.runId);
  const base = { kind: 'journey' as const, client_id: item.clientId, run };
  const facts: JourneyFact[] = [];
  if (record.eventName === 'INSERT' || !previous)
    facts.push({ ...base, type: 'journey.entered', seq: 1, at: text(next['created_at']) ?? run.updated_at });
  const before = Array.isArray(previous?.['path']) ? (previous['path'] as unknown[]).length : 0;
  const path = Array.isArray(next['path']) ? (next['path'] as RunPathEntry[]) : [];
  for (const step of path.slice(before))
    facts.push({ ...base, type: 'journey.step_completed', step, seq: Number(step.seq), at: step.at });
  const ended = (status: unknown) => RUN_ENDED_STATUSES.includes(status as RunStatus);
  if (ended(next['status']) && !ended(previous?.['status']))
    facts.push({
      ...base,
      type: 'journey.exited',
      seq: Number(next['seq']),
      at: text(next['ended_at']) ?? run.updated_at,
    });
  return facts;
}

function runFields(image: Image, id: number): JourneyRunFields {
  const keyValue = text(image['key_value']);
  const reason = text(image['reason']);
  return {
    id,
    execution_id: null,
    journey_id: Number(image['journey_id']),
    version: Number(image['version']),
    contact_id: Number(image['contact_id']),
    event_id: Number(image['event_id']),
    ...(keyValue !== undefined ? { key_value: keyValue } : {}),
    status: text(image['status']) as RunStatus,
    ...(reason !== undefined ? { reason: reason as JourneyRunFields['reason'] & string } : {}),
    step_id: text(image['step_id']) ?? '',
    updated_at: text(image['updated_at']) ?? '',
    erased: image['event'] === undefined,
  };
}

/** An execution item's image as a system journey's facts read it. */
function executionImageOf(image: Image, id: number): ExecutionImage {
  const reason = text(image['reason']);
  const processedAt = text(image['processed_at']);
  return {
    id,
    workflow_id: Number(image['workflow_id']),
    contact_id: Number(image['contact_id']),
    event_id: typeof image['event_id'] === 'number' ? image['event_id'] : null,
    status: Number(image['status']) as ExecutionStatus,
    ...(reason !== undefined ? { reason } : {}),
    is_test: image['is_test'] === true,
    ...(typeof image['run_id'] === 'number' ? { run_id: image['run_id'] } : {}),
    has_event: image['event'] !== undefined,
    ...(processedAt !== undefined ? { processed_at: processedAt } : {}),
    created_at: text(image['created_at']) ?? '',
    updated_at: text(image['updated_at']) ?? '',
  };
}

/** A tenant pause that appeared or went on the client's sender state; any other change of it is none. */
function sendingFact(
  clientId: number,
  previous: Image | undefined,
  next: Image,
  writtenAt: number | undefined,
): SendingFact | undefined {
  const was = text(previous?.['tenant_paused_at']);
  const now = text(next['tenant_paused_at']);
  if ((was === undefined) === (now === undefined)) return undefined;
  const tenant = text(next['tenant']) ?? text(previous?.['tenant']) ?? null;
  if (now !== undefined) {
    return {
      kind: 'sending',
      type: 'sending.paused',
      client_id: clientId,
      sending: { tenant, paused_at: now, reason: text(next['tenant_paused_reason']) ?? null },
      at: now,
      pause_began_at: now,
    };
  }
  return {
    kind: 'sending',
    type: 'sending.resumed',
    client_id: clientId,
    sending: { tenant, paused_at: null, reason: null },
    // The stream's own time of the write (seconds); the pause it ends names the fact.
    at: writtenAt === undefined ? (was as string) : new Date(writtenAt * 1000).toISOString(),
    pause_began_at: was as string,
  };
}

/**
 * A broadcast head that became snapshotting from scheduled (started), or sent (completed); any other change of it
 * (a draft saved, a pause, the snapshot's progress) is none.
 */
function broadcastFact(
  clientId: number,
  id: number,
  previous: Image | undefined,
  next: Image,
): BroadcastFact | undefined {
  const was = text(previous?.['status']);
  const now = text(next['status']);
  if (was === now) return undefined;
  const type =
    now === 'snapshotting' && was === 'scheduled'
      ? 'broadcast.started'
      : now === 'sent'
        ? 'broadcast.completed'
        : undefined;
  if (!type) return undefined;
  const definition = (next['definition'] ?? {}) as { audience?: Record<string, unknown>; category?: string };
  const snapshot = next['snapshot'] as { total?: number } | undefined;
  const startedAt = text(next['started_at']) ?? null;
  const completedAt = text(next['completed_at']) ?? null;
  return {
    kind: 'broadcast',
    type,
    client_id: clientId,
    broadcast: {
      id,
      name: text(next['name']) ?? '',
      audience: definition.audience ?? {},
      category: definition.category ?? 'marketing',
      recipients: type === 'broadcast.completed' && typeof snapshot?.total === 'number' ? snapshot.total : null,
      started_at: startedAt,
      completed_at: completedAt,
    },
    at: (type === 'broadcast.started' ? startedAt : completedAt) ?? text(next['updated_at']) ?? '',
  };
}

/** The topic choices (`topic_<id>` booleans) a contact write changed, by topic id. */
function changedTopics(previous: Image, next: Image): { topic_id: number; is_subscribed: boolean }[] {
  return Object.keys(next)
    .flatMap((name) => {
      const id = topicIdOfAttribute(name);
      const value = next[name];
      return id !== undefined && typeof value === 'boolean' && previous[name] !== value
        ? [{ topic_id: id, is_subscribed: value }]
        : [];
    })
    .sort((a, b) => a.topic_id - b.topic_id);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function contactFields(image: Image, id: number): ContactFactFields {
  const optional = (name: keyof ContactFactFields) => {
    const value = text(image[name]);
    return value === undefined ? {} : { [name]: value };
  };
  return {
    id,
    email: text(image['email']) ?? '',
    ...optional('client_contact_id'),
    ...optional('first_name'),
    ...optional('last_name'),
    is_subscribed: image['is_subscribed'] === true,
    ...optional('unsubscribed_at'),
    ...optional('unsubscribe_reason'),
    updated_at: text(image['updated_at']) ?? '',
  };
}

function executionFields(image: Image, id: number): ExecutionFactFields {
  return {
    id,
    workflow_id: Number(image['workflow_id']),
    contact_id: Number(image['contact_id']),
    event_id: typeof image['event_id'] === 'number' ? image['event_id'] : null,
    status: Number(image['status']),
    ...(text(image['reason']) !== undefined ? { reason: text(image['reason'])! } : {}),
    is_test: image['is_test'] === true,
    ...(text(image['sent_email_id']) !== undefined ? { sent_email_id: text(image['sent_email_id'])! } : {}),
    created_at: text(image['created_at']) ?? '',
    updated_at: text(image['updated_at']) ?? '',
  };
}
