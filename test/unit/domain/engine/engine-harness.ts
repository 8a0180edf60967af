import { contactRecord } from '../../support/contact-fixtures.js';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import type { ClientRecord } from '../../../../shared/domain/clients/client-store.js';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import { eventProcessingDeps } from '../../../../shared/domain/events/create-event.js';
import { ingestEvent } from '../../../../shared/domain/events/ingest-event.js';
import { processEvent } from '../../../../shared/domain/events/process-event.js';
import { EventBody } from '../../../../shared/domain/events/schemas.js';
import { executeWorkflow, type ExecuteDeps } from '../../../../shared/domain/executions/execute-workflow.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import type { BroadcastSendState } from '../../../../shared/domain/executions/delivery-store.js';
import { retryExecution } from '../../../../shared/domain/executions/retry-execution.js';
import { advanceRun } from '../../../../shared/domain/runs/advance-run.js';
import { trackNotification } from '../../../../shared/domain/tracking/track-notification.js';
import type { SettingsFields } from '../../../../shared/domain/settings/settings-store.js';
import type { SenderState } from '../../../../shared/domain/domains/sender-state.js';
import type { TenantStatus } from '../../../../shared/domain/domains/sender-identities.js';
import type {
  BatchMessage,
  MailSendResult,
  Mailer,
  OutboundEmail,
  Queue,
  QueueMessages,
  QueueName,
  RunMessage,
  Scheduler,
  SendOptions,
} from '../../../../shared/platform.js';

/** The fixed clock's instant (memoryStores' FixedClock): a Thursday, 10:00 UTC. */
export const NOW = '2026-01-15T10:00:00.000Z';
export const CLIENT_ID = 7;
/** The service's own senders in the harness. */
export const ONBOARDING_FROM = 'onboarding@sandbox.els.test';
export const SYSTEM_FROM = 'accounts@els.test';
/** The harness client's verified domain, unless a test says otherwise. */
export const VERIFIED_DOMAIN = 'acme.test';

/** SES's answers to GetTenant, as scripted; every call recorded. */
export class ScriptedTenants {
  readonly asked: string[] = [];
  status: TenantStatus = { status: 'ENABLED' };
  async tenantStatus(tenant: string): Promise<TenantStatus> {
    this.asked.push(tenant);
    return this.status;
  }
}

export class RecordingQueue implements Queue {
  readonly sent: { queue: QueueName; message: unknown; options?: SendOptions }[] = [];
  /** sendBatch calls; their messages are in `sent` as if sent one by one. */
  batches = 0;
  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options?: SendOptions): Promise<void> {
    this.sent.push({ queue, message, ...(options ? { options } : {}) });
  }
  async sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    this.batches += 1;
    for (const { message, options } of messages) await this.send(queue, message, options);
  }
}

export class RecordingScheduler implements Scheduler {
  readonly scheduled: { instant: string; queue: QueueName; message: unknown; name: string }[] = [];
  async scheduleAt<Q extends QueueName>(
    instant: Date,
    queue: Q,
    message: QueueMessages[Q],
    name: string,
  ): Promise<void> {
    this.scheduled.push({ instant: instant.toISOString(), queue, message, name });
  }
  readonly cancelled: string[] = [];
  async cancel(name: string): Promise<void> {
    this.cancelled.push(name);
  }
}

/** Sends every e-mail (`ses-1`, `ses-2`, …) unless told otherwise for the next calls. */
export class RecordingMailer implements Mailer {
  readonly emails: OutboundEmail[] = [];
  private readonly next: (() => MailSendResult)[] = [];

  thenThrow(error: Error): this {
    this.next.push(() => {
      throw error;
    });
    return this;
  }
  thenReject(reason: string): this {
    this.next.push(() => ({ kind: 'rejected', reason }));
    return this;
  }
  /** The provider answers with `error` before accepting anything (a 4xx, or a 5xx with nothing sent). */
  thenFailBeforeSend(error: Error): this {
    this.next.push(() => {
      this.emails.pop();
      throw error;
    });
    return this;
  }
  /** The worker is lost mid-call (timeout, crash): the call never returns; `accepted`: after the provider took it. */
  thenLoseWorker(accepted: boolean): this {
    this.next.push(() => {
      if (!accepted) this.emails.pop();
      return LOST;
    });
    return this;
  }
  /** Provider message ids of the accepted e-mails, in order (`ses-1`, …). */
  idOf(index: number): string {
    return `ses-${index + 1}`;
  }
  async send(email: OutboundEmail): Promise<MailSendResult> {
    this.emails.push(email);
    const n = this.emails.length;
    const scripted = this.next.shift();
    const result = scripted ? scripted() : { kind: 'sent' as const, providerMessageId: `ses-${n}` };
    if (result === LOST) return new Promise<MailSendResult>(() => {});
    return result;
  }
}

const LOST = { kind: 'sent', providerMessageId: 'never-returned' } as const;

/** An error as the SES client throws it when throttled: SES answered 429, nothing was sent. */
export const throttled = () =>
  Object.assign(new Error('Maximum sending rate exceeded.'), {
    name: 'TooManyRequestsException',
    $fault: 'client',
    $metadata: { httpStatusCode: 429 },
  });

/** SES v2 over the account's 24-hour quota (LimitExceededException, 400): nothing was sent. */
export const dailyQuotaExceeded = () =>
  Object.assign(new Error('Daily message quota exceeded.'), {
    name: 'LimitExceededException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
  });

/** SES refusing every send of a paused account (400): nothing was sent, and no backoff of ours helps. */
export const sendingPaused = () =>
  Object.assign(new Error('Sending is paused for this account.'), {
    name: 'SendingPausedException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
  });

/** A connection reset after the request left: SES may have accepted the e-mail (no HTTP answer). */
export const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/** SES answered 500: the outcome is unknown. */
export const internalError = () =>
  Object.assign(new Error('Internal failure'), {
    name: 'InternalServiceErrorException',
    $fault: 'server',
    $metadata: { httpStatusCode: 500 },
  });

/**
 * The engine over memory ports only: memoryStores() (its fixed clock at NOW), a recording queue, scheduler and
 * mailer, and one client (plan free: 3 workflows, 100 e-mails a day) with its settings and its sending state (by
 * default the domain acme.test verified, no tenant; `null`: none, the client is in the sandbox).
 */
export async function engineHarness(
  settings: SettingsFields = {},
  client: Partial<ClientRecord> = {},
  sender: SenderState | null = { verified_domains: [VERIFIED_DOMAIN] },
) {
  const stores = memoryStores();
  const tenants = new ScriptedTenants();
  const queue = new RecordingQueue();
  const scheduler = new RecordingScheduler();
  const mailer = new RecordingMailer();
  const hash = 'a'.repeat(64);
  await stores.clients.create(
    {
      id: CLIENT_ID,
      client_id: '6f1c1f43-3c43-4a36-9d7e-0d0e3c0c8e11',
      name: 'Acme',
      email: 'ops@acme.test',
      plan: 'free',
      status: 'active',
      api_key_id: 1,
      api_key_hash: hash,
      api_key_masked: 'els_…aaaa',
      api_key_enabled: true,
      created_at: NOW,
      updated_at: NOW,
      ...client,
    },
    { key_hash: hash, key_id: 1, client_id: CLIENT_ID, enabled: true, masked_key: 'els_…aaaa', created_at: NOW },
  );
  await stores.settings.save(
    {
      id: CLIENT_ID,
      client_id: CLIENT_ID,
      tone_of_voice: 1,
      version: 1,
      created_at: NOW,
      updated_at: NOW,
      timezone: 'UTC',
      ...settings,
    },
    undefined,
  );
  if (sender) stores.settings.senders.set(CLIENT_ID, structuredClone(sender));
  const deps = { ...stores, queue, scheduler, mailer };
  const executeDeps: ExecuteDeps = {
    ...deps,
    sender: {
      linkSecret: 'x'.repeat(32),
      publicBaseUrl: 'https://els.test',
      onboardingFrom: ONBOARDING_FROM,
      reserved: [SYSTEM_FROM, ONBOARDING_FROM],
    },
    senderIdentities: tenants,
    // No jitter: a throttled send's backoff is its lower bound (throttle-backoff.ts).
    random: () => 0,
  };
  let nextContactId = 100;

  return {
    stores,
    queue,
    scheduler,
    mailer,
    tenants,
    clock: stores.clock,
    /** The client's sending state as the sender reads it. */
    senderState: () => stores.settings.senders.get(CLIENT_ID),

    async contact(fields: Partial<ContactRecord> = {}): Promise<ContactRecord> {
      const id = nextContactId++;
      const contact = contactRecord({
        id,
        client_id: CLIENT_ID,
        email: `contact${id}@example.com`,
        client_contact_id: undefined,
        created_at: NOW,
        updated_at: NOW,
        ...fields,
      });
      await stores.contacts.create(contact);
      return contact;
    },

    /** POST /client/events, async: the event stored (queued), as the API leaves it. */
    async ingest(raw: Record<string, unknown>) {
      const outcome = await ingestEvent(deps, CLIENT_ID, EventBody.parse(raw), raw, 'async');
      return outcome.event;
    },

    process: (eventId: number) => processEvent(eventProcessingDeps(deps), CLIENT_ID, eventId),
    execute: (executionId: number) => executeWorkflow(executeDeps, CLIENT_ID, executionId),
    /** The local runtime's boot: no worker can hold a claim, decide it now. */
    executeAtBoot: (executionId: number) => executeWorkflow(executeDeps, CLIENT_ID, executionId, { leaseVoid: true }),
    /** The ses-status function: one SES notification (SNS envelope or raw event) through the tracking pipeline. */
    track: (body: unknown) =>
      trackNotification({ tracking: stores.tracking, clients: stores.clients, clock: stores.clock, queue }, body),
    retry: (executionId: number) => retryExecution(deps, CLIENT_ID, executionId),
    /** The advance-runs function: one message of the journey queue. */
    advance: (message: RunMessage) => advanceRun(deps, message),
    /** The journey queue's messages so far (run moves, wakes), in order. */
    journeyMessages: () => queue.sent.filter((s) => s.queue === 'journey').map((s) => s.message as RunMessage),
    /** A run as stored. */
    run: async (runId: number) => (await stores.runs.read(CLIENT_ID, { runId, config: false })).run,

    /** A queued execution as processing leaves it (committed with its event; the contact's active count raised). */
    async queued(contact: ContactRecord, fields: Partial<ExecutionRecord> = {}): Promise<ExecutionRecord> {
      const event = await this.ingest({ type: 'signup', email: contact.email });
      const execution: ExecutionRecord = {
        id: event.id + 1,
        client_id: CLIENT_ID,
        workflow_id: 1,
        contact_id: contact.id,
        event_id: event.id,
        status: EXECUTION_STATUS.queued,
        is_test: false,
        attempt: 1,
        template_id: 1,
        priority_score: 90,
        critical: false,
        cap_day: NOW.slice(0, 10),
        scheduled_for: NOW,
        event: { type: 'signup', ts: NOW },
        created_at: NOW,
        updated_at: NOW,
        ...fields,
      };
      const outcome = await stores.processing.commit({
        event: { ...event, queue_status: 'processed', execution_ids: [execution.id], processed_at: NOW },
        executions: [execution],
        contact: {
          contactId: contact.id,
          workflowsStarted: execution.status === EXECUTION_STATUS.queued ? 1 : 0,
          at: NOW,
        },
      });
      if (outcome !== 'committed') throw new Error(`seeding an execution: ${outcome}`);
      return execution;
    },

    /**
     * A broadcast's recipient as its snapshot leaves it (workflow 0, its own category and topic), and its broadcast's
     * state as the send reads it with the contact (`undefined`: the broadcast is gone).
     */
    async recipient(
      contact: ContactRecord,
      broadcast: BroadcastSendState | undefined,
      fields: Partial<ExecutionRecord> = {},
    ): Promise<ExecutionRecord> {
      const load = stores.delivery.load.bind(stores.delivery);
      stores.delivery.load = async (execution) => ({
        ...(await load(execution)),
        ...(execution.broadcast_id !== undefined && broadcast ? { broadcast: structuredClone(broadcast) } : {}),
      });
      return this.queued(contact, {
        workflow_id: 0,
        broadcast_id: 3,
        variant: 0,
        category: 'marketing',
        priority_score: 30,
        ...fields,
      });
    },

    execution: (id: number) => stores.executions.get(CLIENT_ID, id),
    storedContact: (id: number) => stores.contacts.get(CLIENT_ID, id),
    monthSent: async () => (await stores.settings.load(CLIENT_ID, NOW.slice(0, 7))).monthlyEmailsSent,
    dayCap: async (execution: ExecutionRecord) => (await stores.delivery.load(execution)).cap,
  };
}

export type EngineHarness = Awaited<ReturnType<typeof engineHarness>>;
