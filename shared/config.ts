import * as z from './validation/zod.js';
import { DEFAULT_JWT_MAX_LIFETIME_SECONDS } from './domain/auth/jwt-lifetime.js';
import { DEFAULT_ANONYMOUS_REQUESTS_PER_MINUTE, networkList } from './domain/rate-limits/ip-limit.js';

/** Environment → typed configuration, validated once at cold start. */
const ConfigSchema = z.object({
  TABLE_NAME: z._default(z.string().check(z.minLength(1)), 'email-lifecycle'),
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  /** Set locally (DynamoDB Local); unset on AWS. */
  AWS_ENDPOINT_URL_DYNAMODB: z.optional(z.url()),
  AWS_ENDPOINT_URL_SESV2: z.optional(z.url()),
  BULK_IMPORT_LIMIT: z._default(z.coerce.number().check(z.int(), z.positive()), 1000),
  /** Per-container cache of authentication results; DESIGN.md §5 caps it at 60 s. */
  AUTH_CACHE_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(60)), 60),
  /**
   * Per-container cache of a client's configuration items as the engine reads them (settings, profile, workflow
   * customizations, client templates); 0 disables it. A write through the same container forgets them.
   */
  CONFIG_CACHE_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(300)), 30),
  /** Locally and in tests; on AWS the stack gives JWT_HS256_SECRET_ARN instead (shared/composition/configured-secret.ts). */
  JWT_HS256_SECRET: z.optional(z.string().check(z.minLength(32))),
  /** AWS: the Secrets Manager secret holding the HS256 key, read on the first JWT (context `jwtHs256SecretArn`). */
  JWT_HS256_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  JWT_JWKS_URL: z.optional(z.url()),
  JWT_ISSUER: z.optional(z.string().check(z.minLength(1))),
  JWT_AUDIENCE: z.optional(z.string().check(z.minLength(1))),
  JWT_CLIENT_ID_CLAIM: z._default(z.string().check(z.minLength(1)), 'client_id'),
  /** Longest accepted JWT lifetime (exp − iat, or exp − now without iat); a token without exp is refused. */
  JWT_MAX_LIFETIME_SECONDS: z._default(
    z.coerce.number().check(z.int(), z.positive()),
    DEFAULT_JWT_MAX_LIFETIME_SECONDS,
  ),
  /**
   * Requests one IP may make per minute where no client answers for them (public pages and links, sign-in, docs, the
   * dashboard's files, failed credentials; shared/domain/rate-limits/ip-limit.ts).
   */
  ANONYMOUS_REQUESTS_PER_MINUTE: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(100_000)),
    DEFAULT_ANONYMOUS_REQUESTS_PER_MINUTE,
  ),
  /** Networks (CIDR, comma-separated) the per-IP limit never counts: an operator's monitors; locally the loopback. */
  IP_RATE_LIMIT_EXEMPT: z._default(
    z.pipe(
      z.string(),
      z.transform((value, ctx) => {
        const cidrs = value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean);
        try {
          networkList(cidrs);
        } catch (error) {
          ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        }
        return cidrs;
      }),
    ),
    [],
  ),
  /** Public origin of the service: the dashboard, the API, sign-in links; and the links in e-mails unless LINKS_BASE_URL. */
  PUBLIC_BASE_URL: z._default(z.url(), 'http://127.0.0.1:3000'),
  /**
   * Origin of the links in e-mails (`/u/…` unsubscribe, `/v/…` view in browser): a host of their own, apart from the
   * dashboard's, where the deployment has one (AWS: context `linksBaseUrl`, a second custom domain of the same API).
   * Unset: PUBLIC_BASE_URL, the dashboard's origin (the local default; the e-mail's sandbox CSP still holds).
   */
  LINKS_BASE_URL: z.optional(z.url()),
  /** The engine's queues (AWS: set by the stack for the functions that send to them). */
  EVENTS_QUEUE_URL: z.optional(z.url()),
  WORKFLOW_QUEUE_URL: z.optional(z.url()),
  WORKFLOW_QUEUE_ARN: z.optional(z.string().check(z.minLength(1))),
  /** Journey runs (advance-runs): URL for the functions that send to it, ARN for those that schedule to it. */
  JOURNEY_QUEUE_URL: z.optional(z.url()),
  JOURNEY_QUEUE_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The webhook delivery queue: URL for the functions that send to it, ARN for those that schedule to it. */
  WEBHOOKS_QUEUE_URL: z.optional(z.url()),
  WEBHOOKS_QUEUE_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The failing endpoints' lane of webhook deliveries (its URL and ARN, as above). */
  WEBHOOKS_FAILING_QUEUE_URL: z.optional(z.url()),
  /** The service's own e-mails (sign-in links, invitations), sent after the request that asked for them. */
  SYSTEM_MAIL_QUEUE_URL: z.optional(z.url()),
  WEBHOOKS_FAILING_QUEUE_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The broadcast engine's steps (start, snapshot pages, pacing, cancel): URL to send, ARN to schedule. */
  BROADCAST_QUEUE_URL: z.optional(z.url()),
  BROADCAST_QUEUE_ARN: z.optional(z.string().check(z.minLength(1))),
  /** EventBridge Scheduler: group of the one-time schedules and the role that lets them send to the queue. */
  SCHEDULER_GROUP_NAME: z.optional(z.string().check(z.minLength(1))),
  SCHEDULER_ROLE_ARN: z.optional(z.string().check(z.minLength(1))),
  SCHEDULER_DLQ_ARN: z.optional(z.string().check(z.minLength(1))),
  /** SES configuration set that publishes delivery events; the From address when a client set none. */
  SES_CONFIGURATION_SET: z.optional(z.string().check(z.minLength(1))),
  /** The service's own e-mails' configuration set (sign-in links, invitations, notices): their events counted apart. */
  SES_SYSTEM_CONFIGURATION_SET: z.optional(z.string().check(z.minLength(1))),
  /**
   * Deprecated name of ONBOARDING_FROM_ADDRESS, read only when that is unset; never a client's From of its own (a
   * client sends From its verified domains only).
   */
  DEFAULT_FROM_ADDRESS: z.optional(z.email()),
  /**
   * The shared onboarding sender: a client with no verified domain sends From it, with its own name as display name,
   * to its own dashboard users and SES's mailbox simulator only (the sandbox). A verified SES identity on AWS on a
   * domain other than SYSTEM_FROM_EMAIL's (context `onboardingFromAddress`).
   */
  ONBOARDING_FROM_ADDRESS: z.optional(z.email()),
  /** Who creates SES tenants and domain identities: `ses` on AWS; `local`, a registry in the table (the local runtime). */
  SENDER_IDENTITIES: z._default(z.enum(['ses', 'local']), 'ses'),
  /** Where a domain's records are looked up: `system` DNS on AWS; `local`, records a developer publishes (dev route). */
  DNS_RESOLVER: z._default(z.enum(['system', 'local']), 'system'),
  /** Prefix of the SES tenants and names the service creates (`<prefix>client-<id>`), one per deployment. */
  SES_TENANT_PREFIX: z._default(z.string().check(z.regex(/^[a-z0-9-]{0,32}$/)), 'els-'),
  /** Optional SES reputation policy applied to each client's tenant (its ARN), so SES pauses a client, not the account. */
  SES_TENANT_REPUTATION_POLICY_ARN: z.optional(z.string().check(z.minLength(1))),
  /**
   * The From address of the service's own e-mails (sign-in links, invitations; shared/domain/system-mail), a verified
   * SES identity on AWS (context `systemFromEmail`, else `defaultFromAddress`). The local runtime sets one.
   */
  SYSTEM_FROM_EMAIL: z._default(z.email(), 'no-reply@example.com'),
  /** Optional mailbox offered as the List-Unsubscribe mailto alternative. */
  UNSUBSCRIBE_MAILTO: z.optional(z.email()),
  /**
   * How long an execution's claim is left to its worker and to SES's status notifications before its outcome is
   * decided without them (docs/decisions/0069-nothing-stranded-claims-decided-from-evidence.md). AWS: 600. The local runtime sets 60 (its SES publishes at once).
   * At most 840, so the wait fits one SQS delay (900 s) with margin.
   */
  EXECUTION_LEASE_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(840)), 600),
  /**
   * E-mails a second the SES account accepts (AWS: context `sesMaxSendRate`; SES's default out of the sandbox is 14).
   * Broadcasts together take BROADCAST_SHARE of it; lifecycle mail keeps the rest. The local runtime sets 50.
   */
  SES_MAX_SEND_RATE: z._default(z.coerce.number().check(z.positive(), z.lte(100_000)), 14),
  /** The share of SES_MAX_SEND_RATE all broadcasts together may take (0.8; a bench with no lifecycle mail sets 1). */
  BROADCAST_SHARE: z._default(z.coerce.number().check(z.positive(), z.lte(1)), 0.8),
  /** The outbox sweeper enqueues again an event still queued this long after it was written. */
  OUTBOX_SWEEP_AFTER_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(0)), 120),
  /** Days a day-counter row is kept (its TTL) after its day; a stats read spans at most 400 days. */
  STATS_RETENTION_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(3650)), 400),
  /**
   * The waits between a webhook message's attempts, in seconds, comma-separated; default Svix's
   * 5,300,1800,7200,18000,36000,36000. For demos and tests only (the integration run shortens it); 1–7 entries.
   */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z.optional(
    z.pipe(
      z.string().check(z.regex(/^[0-9]{1,6}(,[0-9]{1,6}){0,6}$/, 'comma-separated whole seconds, 1 to 7 of them')),
      z.transform((v: string) => v.split(',').map(Number)),
    ),
  ),
  /** HMAC secret of the public /u and /v links (≥ 32 characters), locally and in tests (`npm start` generates one). */
  LINK_SECRET: z.optional(z.string().check(z.minLength(32))),
  /** AWS: the stack's Secrets Manager secret holding LINK_SECRET, read on the first request that needs it. */
  LINK_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  /**
   * Webhook endpoints may use http and reach loopback/private addresses. Unset (false) on AWS, where
   * URLs must be https and every resolved address public; the local runtime sets true so a developer can point an
   * endpoint at a local receiver.
   */
  WEBHOOK_ALLOW_PRIVATE_URLS: z._default(
    z.pipe(
      z.enum(['true', 'false', '1', '0']),
      z.transform((v: 'true' | 'false' | '1' | '0') => v === 'true' || v === '1'),
    ),
    false,
  ),
});

export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${fields}`);
  }
  return parsed.data;
}
