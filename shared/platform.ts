/**
 * Cross-cutting ports: the domain's view of time, ids, the queues, the scheduler and the mail provider.
 *
 * Where ports live (one rule): a store port — the interface and the records it stores — lives beside its aggregate
 * in `shared/domain/<area>/<aggregate>-store.ts` (ContactStore, ClientStore, ApiKeyStore, TemplateStore, …);
 * everything that is not one aggregate's storage lives here. `shared/composition/port-registry.ts` maps every port to its
 * name; adapters in `shared/adapters/<tech>/` implement them, `shared/adapters/memory/` for tests.
 */
export interface Clock {
  now(): Date;
}

/**
 * How long one minute of a journey's `wait` or `wait_for_event` timeout lasts: one real minute, except in a local
 * runtime started with a faster one for tests (LOCAL_JOURNEY_MINUTE_MS, read only by local/), where the runtime cannot
 * fast-forward time and a journey's shortest timeout would otherwise hold a test for a real minute.
 */
export interface JourneyTime {
  /** Milliseconds one journey minute lasts. */
  readonly minuteMs: number;
}

export type IdEntity =
  | 'client'
  | 'api_key'
  | 'contact'
  | 'custom_field'
  | 'template'
  | 'settings'
  | 'webhook'
  | 'user'
  | 'domain'
  /** Broadcast recipients (executions written in blocks by the snapshot: one counter write a page). */
  | 'broadcast_recipient';

export interface Ids {
  /** Reserves `count` consecutive ids and returns the first. */
  next(entity: IdEntity, count?: number): Promise<number>;
}

/**
 * A secret of the deployment (the public links' HMAC key, the HS256 JWT key), read when first needed and cached by its
 * source: on AWS a Secrets Manager secret whose cache expires, so a rotated value is taken up (docs/decisions/0077-secrets-at-run-time.md).
 */
export interface Secret {
  value(): Promise<string>;
}

/** Proves the store is reachable with this function's credentials (the health route). */
export interface StoreProbe {
  ping(): Promise<void>;
}

/**
 * Queue messages are pointers (DESIGN.md §8): ids only, the table is the truth, and every consumer is idempotent
 * on them. The consumers' zod schemas are declared `satisfies z.ZodType<…>` against these types.
 */
export interface EventMessage {
  client_id: number;
  event_id: number;
}

export interface ExecutionMessage {
  client_id: number;
  execution_id: number;
}

/**
 * A run of a journey to move (shared/domain/runs): `seq` is the run's seq the sender saw; a run whose seq moved on
 * since ignores it, so a late, early or repeated message moves a run at most once.
 */
export interface RunMessage {
  client_id: number;
  run_id: number;
  seq: number;
  /**
   * Hints from a sender that knew them, so advance-runs reads the run and what it needs in one BatchGet: the run's
   * contact, the send step's execution it waits on, the e-mails whose counted opens and clicks an engagement
   * branch ahead reads, and the segments whose membership a segment branch ahead reads. Without them the run is read
   * first and the rest after (one request more).
   */
  contact_id?: number;
  execution_id?: number;
  sent_email_ids?: string[];
  segment_ids?: number[];
  /**
   * The run's journey and version at this seq (only a transition, which raises the seq, moves them): a container that
   * has not cached that version yet reads it in the same BatchGet. Without them, or after a publish in between (the
   * newer versions), one request more.
   */
  journey_id?: number;
  version?: number;
}

/**
 * One attempt of one webhook message to one endpoint: `attempt` 1 is the first, each retry the next.
 * `replay` marks a delivery a client asked for again (POST …/attempts/{id}/replay): one chain of retries of its own.
 */
export interface WebhookDeliveryMessage {
  client_id: number;
  webhook_id: number;
  message_id: string;
  attempt: number;
  replay?: boolean;
}

/**
 * An SES status notification as SQS carries it from the configuration set's SNS topic: the SNS envelope (or, sent
 * raw, the SES event itself). Not a pointer: the provider's own JSON, parsed by the consumer
 * (shared/domain/tracking/ses-notification.ts).
 */
export type SesStatusMessage = Record<string, unknown>;

/**
 * One of the service's own e-mails to send after the request that asked for it has been answered (so the answer's
 * time tells nothing about the address). Not quite a pointer: a sign-in request names an address, which may have no
 * account (the consumer looks it up); `binding_hash` is the digest of the asking browser's sign-in cookie, never the
 * cookie itself. An invitation points at the client and the inviter, and names the invitee as the inviter typed it.
 */
export type SystemMailMessage =
  | { kind: 'sign_in'; email: string; binding_hash: string }
  | { kind: 'invitation'; client_id: number; inviter_id: number; email: string; name: string; role: number };

/**
 * Contacts whose segment memberships to re-evaluate (a change the stream saw, an edge the sweep found due), or one page
 * of a segment's backfill: `after` is the last contact id of the shard already evaluated, `version` the segment
 * version being filled (a page of an older version stops).
 */
export type SegmentsMessage =
  | { kind: 'contacts'; client_id: number; contact_ids: number[] }
  | { kind: 'backfill'; client_id: number; segment_id: number; version: number; shard: number; after: number }
  /** One page of a deleted segment's member entries (one of its 16 member shards): those contacts leave it. */
  | { kind: 'purge'; client_id: number; segment_id: number; shard: number; after: number };

/**
 * One step of one broadcast's engine: `start` (snapshot begins), `snapshot` (one page of one source shard of the
 * audience), `pace` (release the next recipients), `cancel` (end the waiting recipients). `gen` names the chain a
 * message belongs to, so a message of a chain replaced since (a restart by the sweep) does nothing.
 */
export interface BroadcastMessage {
  client_id: number;
  broadcast_id: number;
  kind: 'start' | 'snapshot' | 'pace' | 'cancel' | 'decide' | 'retry';
  shard?: number;
  gen?: number;
  /** A retry-failed page: the listing key (`<pad12 contact>#<pad16 id>`) the chain has passed in its shard. */
  cursor?: string;
}

/** Each queue the engine sends to, with the one message shape it carries. */
export interface QueueMessages {
  /** events queue → process-events */
  events: EventMessage;
  /** workflow queue → execute-workflow */
  workflow: ExecutionMessage;
  /** journey runs due to move (a wait ended, an awaited event came, a send step's e-mail ended) → advance-runs */
  journey: RunMessage;
  /** SES status notifications → ses-status (on AWS only SNS sends here; locally the SES simulator and /dev/ses-events) */
  'ses-status': SesStatusMessage;
  /** webhook deliveries to healthy endpoints → deliver-webhook */
  webhooks: WebhookDeliveryMessage;
  /** webhook deliveries to failing endpoints (their own lane, so they hold no healthy endpoint's turn) → deliver-webhook-failing */
  'webhooks-failing': WebhookDeliveryMessage;
  /** sign-in links and invitations → send-system-mail */
  'system-mail': SystemMailMessage;
  /** contacts to re-evaluate against the client's segments, and backfill pages → evaluate-segments */
  segments: SegmentsMessage;
  /** broadcast engine steps (start, snapshot pages, pacing, cancel) → run-broadcasts */
  broadcast: BroadcastMessage;
}

export type QueueName = keyof QueueMessages;

/** Every queue's name, for inputs that name one (the admin CLI, the local redrive route); a Record keeps it complete. */
const QUEUE_NAME_SET: Record<QueueName, true> = {
  events: true,
  workflow: true,
  journey: true,
  'ses-status': true,
  webhooks: true,
  'webhooks-failing': true,
  'system-mail': true,
  segments: true,
  broadcast: true,
};
export const QUEUE_NAMES = Object.keys(QUEUE_NAME_SET) as [QueueName, ...QueueName[]];

/** SQS's longest delivery delay: 15 minutes. Longer waits go through the Scheduler. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export interface SendOptions {
  /** 0–MAX_QUEUE_DELAY_SECONDS; default 0. */
  delaySeconds?: number;
}

/** One entry of a batch send. */
export interface BatchMessage<Q extends QueueName> {
  message: QueueMessages[Q];
  options?: SendOptions;
}

/** SQS's SendMessageBatch takes at most 10 entries a call. */
export const MAX_QUEUE_BATCH = 10;

export interface Queue {
  /** Enqueues one message; resolves once the queue accepted it. */
  send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options?: SendOptions): Promise<void>;
  /**
   * Enqueues many messages with as few requests as the queue allows (SQS: SendMessageBatch, 10 a call, calls in
   * parallel). Resolves once every message was accepted; rejects when some could not be, after retrying the entries
   * a batch answer reported as failed (the caller may send the whole list again: consumers are idempotent).
   */
  sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void>;
}

/**
 * A redrive (operations): the in-process queue moves its dead letters back at once and counts them; SQS starts
 * a message move task from the queue's DLQ to the queue, which runs on in the background.
 */
export type RedriveOutcome =
  | { kind: 'moved'; moved: number }
  | { kind: 'started'; taskHandle: string; sourceArn: string; destinationArn: string };

/** The queues' dead letters: moves those of `queue` back to it, to be delivered again. */
export interface DeadLetters {
  redrive(queue: QueueName): Promise<RedriveOutcome>;
}

export interface Scheduler {
  /**
   * Delivers `message` to `queue` at `instant` (one-time, deleted after it ran). `name` is unique per schedule:
   * scheduling the same name again does not deliver twice.
   */
  scheduleAt<Q extends QueueName>(instant: Date, queue: Q, message: QueueMessages[Q], name: string): Promise<void>;
  /** Deletes the schedule `name` before it runs; one that ran already or never existed is no error. */
  cancel(name: string): Promise<void>;
}

/** One e-mail as the provider sends it (SES v2 Simple content). */
export interface OutboundEmail {
  /** `"Name" <address>` or a bare address. */
  from: string;
  to: string;
  replyTo?: string[];
  subject: string;
  html: string;
  text: string;
  /** Extra headers, e.g. `List-Unsubscribe`, `List-Unsubscribe-Post`. */
  headers?: Record<string, string>;
  /** Provider message tags (SES EmailTags): client, execution and sent-email ids. */
  tags?: Record<string, string>;
  /**
   * SES configuration set that publishes the delivery events; absent: the mailer's default. `null`: none at all — the
   * service's own e-mails (sign-in links, invitations: shared/domain/system-mail) are not tracked.
   */
  configurationSet?: string | null;
  /**
   * The client's SES tenant (SendEmail `TenantName`): SES applies the tenant's reputation policy, pause and
   * suppression list. Absent on the service's own e-mails, which belong to no client.
   */
  tenant?: string;
}

/**
 * `sent` carries the provider's message id; `rejected` is a permanent refusal (SES MessageRejected, a suppressed or
 * invalid address) — sending again cannot help. Transient failures (throttling, network) are thrown, so the queue
 * retries them.
 */
export type MailSendResult = { kind: 'sent'; providerMessageId: string } | { kind: 'rejected'; reason: string };

export interface Mailer {
  send(email: OutboundEmail): Promise<MailSendResult>;
}
