import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { clock } from '../../../shared/composition/providers/clock.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { deliveryStore } from '../../../shared/composition/providers/delivery-store.js';
import { eventStore } from '../../../shared/composition/providers/event-store.js';
import { executionStore } from '../../../shared/composition/providers/execution-store.js';
import { ids } from '../../../shared/composition/providers/ids.js';
import { mailer } from '../../../shared/composition/providers/mailer.js';
import { processingStore } from '../../../shared/composition/providers/processing-store.js';
import { queue } from '../../../shared/composition/providers/queue.js';
import { scheduler } from '../../../shared/composition/providers/scheduler.js';
import { sentEmailStore } from '../../../shared/composition/providers/sent-email-store.js';
import { settingsStore } from '../../../shared/composition/providers/settings-store.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { trackingStore } from '../../../shared/composition/providers/tracking-store.js';
import { userStore } from '../../../shared/composition/providers/user-store.js';
import { senderIdentities } from '../../../shared/composition/providers/sender-identities.js';
import { senderSettingsOf } from '../../../shared/composition/sender-settings.js';
import { type Config, loadConfig } from '../../../shared/config.js';
import { ContactBody } from '../../../shared/domain/contacts/schemas.js';
import { createContactRecord } from '../../../shared/domain/contacts/create-contact.js';
import { eventProcessingDeps, type CreateEventDeps } from '../../../shared/domain/events/create-event.js';
import type { EventRecord } from '../../../shared/domain/events/event-record.js';
import { ingestEvent } from '../../../shared/domain/events/ingest-event.js';
import { processEvent } from '../../../shared/domain/events/process-event.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import type { ExecuteDeps } from '../../../shared/domain/executions/execute-workflow.js';
import type { ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import { quotaDayAttribute } from '../../../shared/adapters/dynamo/quota-counter.js';
import { SettingsPatch } from '../../../shared/domain/settings/schemas.js';
import { updateSettings } from '../../../shared/domain/settings/update-settings.js';
import type {
  BatchMessage,
  Clock,
  ExecutionMessage,
  MailSendResult,
  Mailer,
  OutboundEmail,
  Queue,
  QueueMessages,
  QueueName,
  Scheduler,
  SendOptions,
} from '../../../shared/platform.js';

/**
 * The engine's components with the REAL DynamoDB adapters on the integration run's DynamoDB Local, and fakes for
 * the ports that leave the process (queue, scheduler, mailer), so a test drives the executor and the processor
 * one step at a time and reads the table after each.
 */

/** The Queue port, recording every send (nothing is delivered). */
export class RecordingQueue implements Queue {
  readonly sent: { queue: QueueName; message: unknown; delaySeconds: number }[] = [];
  /** sendBatch calls; their messages are in `sent` as if sent one by one. */
  batches = 0;
  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options: SendOptions = {}): Promise<void> {
    this.sent.push({ queue, message, delaySeconds: options.delaySeconds ?? 0 });
  }
  async sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    this.batches += 1;
    for (const { message, options } of messages) await this.send(queue, message, options);
  }
  /** The execution messages sent to the workflow queue, in order. */
  get executions(): ExecutionMessage[] {
    return this.sent.filter((s) => s.queue === 'workflow').map((s) => s.message as ExecutionMessage);
  }
}

/** The Scheduler port, recording every one-time schedule. */
export class RecordingScheduler implements Scheduler {
  readonly scheduled: { at: string; queue: QueueName; message: unknown; name: string }[] = [];
  async scheduleAt<Q extends QueueName>(
    instant: Date,
    queue: Q,
    message: QueueMessages[Q],
    name: string,
  ): Promise<void> {
    this.scheduled.push({ at: instant.toISOString(), queue, message, name });
  }
  readonly cancelled: string[] = [];
  async cancel(name: string): Promise<void> {
    this.cancelled.push(name);
  }
}

/**
 * The Mailer port: accepts every e-mail (a fresh provider id each), after `delayMs` — long enough for a second
 * worker to overtake — unless `failWith` holds errors, which the next calls throw first (SES throttling).
 */
export class FakeMailer implements Mailer {
  readonly sent: (OutboundEmail & { providerMessageId: string })[] = [];
  calls = 0;
  readonly failWith: Error[] = [];
  constructor(private readonly delayMs = 0) {}

  async send(email: OutboundEmail): Promise<MailSendResult> {
    this.calls += 1;
    const failure = this.failWith.shift();
    if (failure) throw failure;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const providerMessageId = `fake-${randomUUID()}`;
    this.sent.push({ ...email, providerMessageId });
    return { kind: 'sent', providerMessageId };
  }
}

/** An error shaped like SES v2's throttling answer: HTTP 429, SES took nothing (the executor reads the status). */
export function throttlingError(): Error {
  const error = new Error('Maximum sending rate exceeded.');
  error.name = 'TooManyRequestsException';
  return Object.assign(error, { $fault: 'client', $metadata: { httpStatusCode: 429 } });
}

export const fixedClock = (iso: string): Clock => ({ now: () => new Date(iso) });

/** The link secret of engineContainer's configuration, handed to the executor as its function reads it (sender-settings.ts). */
const LINK_SECRET = 'x'.repeat(32);

/** A container on DynamoDB Local whose queue, scheduler, mailer (and clock, when given) are the test's. */
export function engineContainer(overrides: Partial<Ports>): Container {
  return createContainer({
    overrides,
    config: loadConfig({
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
      LINK_SECRET,
    }),
  });
}

export type EngineDeps = CreateEventDeps &
  ExecuteDeps &
  Pick<Ports, 'sentEmails' | 'settings' | 'ids' | 'contacts' | 'tracking' | 'users'> & {
    container: Container;
    config: Config;
  };

/** Every port the processor and the executor use, as their functions list them. */
export function engineDeps(container: Container): EngineDeps {
  const deps = container.resolve([
    eventStore,
    processingStore,
    contactStore,
    ids,
    clock,
    queue,
    scheduler,
    executionStore,
    deliveryStore,
    mailer,
    sentEmailStore,
    settingsStore,
    trackingStore,
    userStore,
    senderIdentities,
  ]);
  return { ...deps, sender: senderSettingsOf(deps.config, LINK_SECRET), container };
}

/** PATCH /client/settings, through the settings domain (its plan checks included). */
export async function patchSettings(deps: EngineDeps, clientId: number, patch: Record<string, unknown>): Promise<void> {
  await updateSettings(deps, clientId, SettingsPatch.parse(patch));
}

export async function addContact(deps: EngineDeps, clientId: number, body: Record<string, unknown>): Promise<number> {
  return (await createContactRecord(deps, clientId, ContactBody.parse(body), 0)).id;
}

/** POST /client/events without the HTTP layer: ingest (clock's now as ts), then processEvent — as the queue runs it. */
export async function ingestAndProcess(
  deps: EngineDeps,
  clientId: number,
  body: Record<string, unknown>,
): Promise<EventRecord> {
  const ingested = await ingestEvent(deps, clientId, EventBody.parse(body), body, 'async');
  const processed = await processEvent(eventProcessingDeps(deps), clientId, ingested.event.id);
  if (!processed) throw new Error('the event vanished');
  return processed;
}

/** The executions an event started, by workflow id. */
export async function executionsOf(deps: EngineDeps, event: EventRecord): Promise<Map<number, ExecutionRecord>> {
  const found = await Promise.all((event.execution_ids ?? []).map((id) => deps.executions.get(event.client_id, id)));
  return new Map(found.filter((e): e is ExecutionRecord => e !== undefined).map((e) => [e.workflow_id, e]));
}

/** The client's quota counter of `at`'s UTC month and day (one shard: the test plans stay below sharding). */
export async function quotaCounter(
  deps: EngineDeps,
  clientId: number,
  at: Date,
): Promise<{ month: number; day: number }> {
  const iso = at.toISOString();
  const { db, tableName } = tableOf(deps.container);
  const out = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.quota(clientId, iso.slice(0, 7)), ConsistentRead: true }),
  );
  const item = out.Item ?? {};
  return { month: Number(item['sent'] ?? 0), day: Number(item[quotaDayAttribute(iso.slice(0, 10))] ?? 0) };
}

/** E-mails counted on the contact's day-cap item. */
export async function dayCapCount(deps: EngineDeps, execution: ExecutionRecord): Promise<number> {
  const { db, tableName } = tableOf(deps.container);
  const out = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.contactDayCap(execution.client_id, execution.contact_id, execution.cap_day),
      ConsistentRead: true,
    }),
  );
  return Number(out.Item?.['sent'] ?? 0);
}
