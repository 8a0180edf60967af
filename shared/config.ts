import { z } from 'zod';

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
  /** Public origin used in links (unsubscribe, view in browser). */
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
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
