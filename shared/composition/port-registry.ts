import type { Authenticator } from '../domain/auth/authenticate.js';
import type { RateLimiter } from '../domain/rate-limits/rate-limiter.js';
import type { RateCounter } from '../domain/rate-limits/rate-counter.js';
import type { IpRateCounter, IpRateLimiter } from '../domain/rate-limits/ip-limit.js';
import type { DynamoDBRecord } from 'aws-lambda';
import type { DayCountersProjection } from '../domain/stats/counter-facts.js';
import type { StatsStore } from '../domain/stats/stats-store.js';
import type { SplitWinnerStore } from '../domain/journeys/split-winner-store.js';
import type { ApiKeyStore } from '../domain/api-keys/api-key-store.js';
import type { ClientStore } from '../domain/clients/client-store.js';
import type { ContactStore, ContactWrites } from '../domain/contacts/contact-store.js';
import type { ErasureStore } from '../domain/contacts/erase-contact.js';
import type { ContactActivityStore } from '../domain/contacts/activity-store.js';
import type { SettingsStore } from '../domain/settings/settings-store.js';
import type { TemplateStore } from '../domain/templates/template-store.js';
import type { WorkflowCustomizationStore } from '../domain/workflows/customization-store.js';
import type { EventStore } from '../domain/events/event-store.js';
import type { ProcessingStore } from '../domain/events/processing-store.js';
import type { RunStore } from '../domain/runs/run-store.js';
import type { DeliveryStore } from '../domain/executions/delivery-store.js';
import type { ExecutionStore } from '../domain/executions/execution-store.js';
import type { SentEmailStore } from '../domain/sent-emails/sent-email-store.js';
import type { TrackingStore } from '../domain/tracking/tracking-store.js';
import type { UnsubscribeStore } from '../domain/links/unsubscribe-store.js';
import type { WebhookSender } from '../domain/webhooks/webhook-sender.js';
import type { WebhookStore } from '../domain/webhooks/webhook-store.js';
import type { WebhookOutbox } from '../domain/webhooks/webhook-outbox.js';
import type { ClientNotices } from '../domain/webhooks/deliver-webhook.js';
import type { SystemMail } from '../domain/system-mail/system-mail.js';
import type { UserStore } from '../domain/users/user-store.js';
import type { SessionStore } from '../domain/auth/session-store.js';
import type { AuthReads } from '../domain/auth/authenticate.js';
import type { TopicStore } from '../domain/topics/topic-store.js';
import type { DnsResolver } from '../domain/domains/dns-resolver.js';
import type { SenderIdentities } from '../domain/domains/sender-identities.js';
import type { DomainStore } from '../domain/domains/domain-store.js';
import type { JourneyStore } from '../domain/journeys/journey-store.js';
import type { RecipientStore } from '../domain/broadcasts/recipient-store.js';
import type { PaceStore } from '../domain/broadcasts/pace-store.js';
import type { MembershipStore } from '../domain/segments/membership-store.js';
import type { SegmentStore } from '../domain/segments/segment-store.js';
import type { BroadcastStore } from '../domain/broadcasts/broadcast-store.js';
import type { TableDnsRecords } from '../adapters/dns/table-dns-records.js';
import type { LocalSenderIdentities } from '../adapters/local-ses/local-sender-identities.js';
import type {
  Clock,
  DeadLetters,
  Ids,
  JourneyTime,
  Mailer,
  Queue,
  Scheduler,
  Secret,
  StoreProbe,
} from '../platform.js';

/**
 * Every port by the name a function's `deps` shows it under. Type-only imports: naming a port here puts none of
 * its code into a bundle — a function gets code only through the providers it lists.
 */
export interface Ports {
  clock: Clock;
  /** How long a journey wait's minute lasts (one real minute; faster only in a local runtime for tests). */
  journeyTime: JourneyTime;
  ids: Ids;
  storeProbe: StoreProbe;
  clients: ClientStore;
  apiKeys: ApiKeyStore;
  contacts: ContactStore;
  contactWrites: ContactWrites;
  erasure: ErasureStore;
  contactActivity: ContactActivityStore;
  settings: SettingsStore;
  templates: TemplateStore;
  customizations: WorkflowCustomizationStore;
  /** A client's topics of marketing mail. */
  topics: TopicStore;
  /** A client's sending domains: claims, proofs, the SENDER item's verified domains. */
  domains: DomainStore;
  /** A client's journeys: heads, immutable versions, the index event processing reads, the count and summaries. */
  journeys: JourneyStore;
  /** SES tenants and domain identities (a registry in the table locally). */
  senderIdentities: SenderIdentities;
  /** DNS lookups of sending domains' records (records a developer publishes, locally). */
  dnsResolver: DnsResolver;
  events: EventStore;
  processing: ProcessingStore;
  /** Journey runs: advance-runs' one read and one transaction a step, the RUNDUE sweep, the erasure's end of runs. */
  runs: RunStore;
  executions: ExecutionStore;
  delivery: DeliveryStore;
  /** The broadcast engine's items: snapshot pages, the due index, the pacer, the live entries the sweep reads. */
  recipients: RecipientStore;
  /** The pace clocks every client's broadcasts share (GCRA: the account's and each client's). */
  pace: PaceStore;
  /** Segment membership per contact: the evaluator's read and transitions, the edges sweep's due index. */
  membership: MembershipStore;
  /** A client's segments: heads, the count and summaries, the index, backfill progress, members listing. */
  segments: SegmentStore;
  /** A client's broadcast heads (drafts and their moves) and the totals the projection keeps. */
  broadcasts: BroadcastStore;
  sentEmails: SentEmailStore;
  tracking: TrackingStore;
  unsubscribe: UnsubscribeStore;
  rateCounter: RateCounter;
  /** The per-IP count of anonymous and failed-credential requests (shared/domain/rate-limits/ip-limit.ts). */
  ipRateCounter: IpRateCounter;
  stats: StatsStore;
  webhooks: WebhookStore;
  /** Posts signed deliveries, refusing private addresses unless WEBHOOK_ALLOW_PRIVATE_URLS. */
  webhookSender: WebhookSender;
  /** Webhook messages, attempts and endpoint health. */
  webhookOutbox: WebhookOutbox;
  dayCounters: DayCountersProjection<DynamoDBRecord>;
  /** Split winners: the index and gauge read, the winners written (decided after the day counters moved). */
  splitWinners: SplitWinnerStore;
  /** Notices to a client by the service's own e-mail (an endpoint disabled). */
  clientNotices: ClientNotices;
  queue: Queue;
  deadLetters: DeadLetters;
  scheduler: Scheduler;
  mailer: Mailer;
  /** The service's own e-mails (sign-in links, invitations) from SYSTEM_FROM_EMAIL, untracked. */
  systemMail: SystemMail;
  /** Dashboard users. */
  users: UserStore;
  /** Sign-in links, sessions, the sign-in throttle. */
  sessions: SessionStore;
  /** What the authenticator reads: API keys, client profiles, sessions. */
  authReads: AuthReads;
}

/** What a container can provide: the ports, and the per-container services built from them. */
export interface Components extends Ports {
  /** Holds the per-container auth cache; rotation calls `forget` on it. */
  authenticator: Authenticator;
  /** The public links' HMAC key (configured-secret.ts): read on the first request that signs or verifies one. */
  linkSecret: Secret;
  /** Counts each authenticated request against its client's rate limit; remembers windows it saw full. */
  rateLimiter: RateLimiter;
  ipRateLimiter: IpRateLimiter;
  /** The local runtime's DNS, which its dev routes publish records to (never built on AWS). */
  localDnsRecords: TableDnsRecords;
  /** The local runtime's SES identity and tenant registry, which its dev routes pause tenants in (never on AWS). */
  localSenderIdentities: LocalSenderIdentities;
}
