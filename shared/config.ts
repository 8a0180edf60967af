import * as z from 'zod';
import { DEFAULT_JWT_MAX_LIFETIME_SECONDS } from './domain/auth/jwt-lifetime.js';

/** Environment → typed configuration, validated once at cold start. */
const ConfigSchema = z.object({
  TABLE_NAME: z.string().min(1).default('email-lifecycle'),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Set locally (DynamoDB Local); unset on AWS. */
  AWS_ENDPOINT_URL_DYNAMODB: z.url().optional(),
  AWS_ENDPOINT_URL_SESV2: z.url().optional(),
  BULK_IMPORT_LIMIT: z.coerce.number().int().positive().default(1000),
  /** Per-container cache of authentication results; DESIGN.md §5 caps it at 60 s. */
  AUTH_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(60),
  JWT_HS256_SECRET: z.string().min(32).optional(),
  JWT_JWKS_URL: z.url().optional(),
  JWT_ISSUER: z.string().min(1).optional(),
  JWT_AUDIENCE: z.string().min(1).optional(),
  JWT_CLIENT_ID_CLAIM: z.string().min(1).default('client_id'),
  /** Longest accepted JWT lifetime (exp − iat, or exp − now without iat); a token without exp is refused. */
  JWT_MAX_LIFETIME_SECONDS: z.coerce.number().int().positive().default(DEFAULT_JWT_MAX_LIFETIME_SECONDS),
  /** Public origin used in links (unsubscribe, view in browser). */
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
  /** The engine's queues (AWS: set by the stack for the functions that send to them). */
  EVENTS_QUEUE_URL: z.url().optional(),
  WORKFLOW_QUEUE_URL: z.url().optional(),
  WORKFLOW_QUEUE_ARN: z.string().min(1).optional(),
  /** EventBridge Scheduler: group of the one-time schedules and the role that lets them send to the queue. */
  SCHEDULER_GROUP_NAME: z.string().min(1).optional(),
  SCHEDULER_ROLE_ARN: z.string().min(1).optional(),
  SCHEDULER_DLQ_ARN: z.string().min(1).optional(),
  /** SES configuration set that publishes delivery events; the From address when a client set none. */
  SES_CONFIGURATION_SET: z.string().min(1).optional(),
  DEFAULT_FROM_ADDRESS: z.email().default('no-reply@example.com'),
  /** Optional mailbox offered as the List-Unsubscribe mailto alternative. */
  UNSUBSCRIBE_MAILTO: z.email().optional(),
  /** HMAC secret of the public /u and /v links (≥ 32 characters; AWS: from Secrets Manager via the stack). */
  LINK_SECRET: z.string().min(32).optional(),
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
