import type { Node } from 'constructs';
import * as z from 'zod';
import { queueFunctions } from '../functions/queues.js';
import { corsPolicy, parseCorsOrigins, type CorsPolicy } from '../shared/http/cors.js';
import {
  maxConcurrencyContextKey,
  SES_DEFAULT_MAX_SEND_RATE,
  type QueueConcurrencySettings,
} from './queue-concurrency.js';

/** Deploy-time choices, read from CDK context (`cdk deploy -c key=value` or cdk.json). */
export interface StackSettings {
  /** Table deletion protection + RETAIN of stateful resources (context `deletionProtection`, default true). */
  deletionProtection: boolean;
  /**
   * Context `detachRoutes` (default false): the route functions are built without their API Gateway routes. Only for
   * the first of the two deploys that move a deployment of the one-stack layout onto the nested stacks (a route key
   * can exist once per API, and CloudFormation creates the nested stacks' routes before it deletes the root's):
   * docs/stacks.md "Moving a deployment".
   */
  detachRoutes: boolean;
  /**
   * Default-stage throttling (context `throttleRateLimit` req/s, default 2 000; `throttleBurstLimit`, default 4 000):
   * a ceiling for the whole API, never the first limit a client meets (see STAGE_THROTTLE_DEFAULTS).
   */
  throttle: { rateLimit: number; burstLimit: number };
  /**
   * The throttle of each ingest route (functions/routes.ts `ingest`: events, bulk imports), its own instead of the
   * stage's (context `ingestThrottleRateLimit` req/s, default 2 000; `ingestThrottleBurstLimit`, default 4 000).
   */
  ingestThrottle: { rateLimit: number; burstLimit: number };
  /** Extra Lambda environment: only the variables whose context key was given. */
  functionEnvironment: Record<string, string>;
  /**
   * Context `jwtHs256SecretArn`: the complete ARN of a Secrets Manager secret holding the HS256 JWT key; the functions
   * that authenticate read it at run time (never the value in context: it would land in the template).
   */
  jwtHs256SecretArn: string | undefined;
  /** Environment of the functions that send clients' e-mail only: the variables of SENDER_CONTEXT_ENVIRONMENT given. */
  senderEnvironment: Record<string, string>;
  /** The service's own senders and the clients' tenants' settings, which the SES grants are written from. */
  mailSenders: MailSenders;
  /**
   * CORS (API Gateway answers preflights): context `corsOrigins`, else the environment's `CORS_ORIGINS` — the variable
   * `npm start` reads, so one setting serves both; off when neither is set.
   */
  cors: CorsPolicy | undefined;
  /** Context `onCallEmail`: an address subscribed to the on-call topic (SNS asks it to confirm); none when absent. */
  onCallEmail: string | undefined;
  /**
   * How many invocations each queue's mapping may run (infra/queue-concurrency.ts): context `sesMaxSendRate`
   * (e-mails/s, default 14) sizes the senders, `<handler>MaxConcurrency` (e.g. `processEventsMaxConcurrency`,
   * 2–1000) overrides an entry of functions/queues.ts.
   */
  queueConcurrency: QueueConcurrencySettings;
}

/**
 * The gateway's own limits are shared by every client and by anonymous traffic, so they sit far above what the
 * per-client limits admit (shared/domain/plans/catalog.ts: the four plans' API limits add up to 185 a second, their
 * ingest limits to 425; an operator's override goes up to 1 000) and anonymous traffic is held per IP in the
 * functions first (shared/domain/rate-limits/ip-limit.ts). 2 000 a second is over 10× the plans' API sum and twice
 * the highest override; the stage and the three ingest routes together (8 000 a second) stay under API Gateway's
 * account quota of 10 000 a second per Region, and each burst under its 5 000 (docs/decisions/0129-gateway-limits-and-anonymous-ip-limit.md, "The gateway's
 * limits sit above every client's").
 */
export const STAGE_THROTTLE_DEFAULTS = { rateLimit: 2000, burstLimit: 4000 } as const;
export const INGEST_THROTTLE_DEFAULTS = { rateLimit: 2000, burstLimit: 4000 } as const;

/** Context key → environment variable of shared/config.ts that every HTTP function receives when the key is set. */
export const CONTEXT_ENVIRONMENT = {
  jwtJwksUrl: 'JWT_JWKS_URL',
  jwtIssuer: 'JWT_ISSUER',
  jwtAudience: 'JWT_AUDIENCE',
  jwtClientIdClaim: 'JWT_CLIENT_ID_CLAIM',
  jwtMaxLifetimeSeconds: 'JWT_MAX_LIFETIME_SECONDS',
  bulkImportLimit: 'BULK_IMPORT_LIMIT',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  /** The links in e-mails on a host of their own (a second custom domain mapped to the API): docs/deploy.md "Links in e-mails on a host of their own". */
  linksBaseUrl: 'LINKS_BASE_URL',
} as const;

/** Context key → environment variable of the functions that send clients' e-mail, each an e-mail address. */
export const SENDER_CONTEXT_ENVIRONMENT = {
  unsubscribeMailto: 'UNSUBSCRIBE_MAILTO',
} as const;

/**
 * The service's own senders, each a verified SES identity of the operator's, on two different domains
 * (docs/deploy.md "SES identities"):
 * - `systemFromEmail` (SYSTEM_FROM_EMAIL): the From of the service's own e-mails (sign-in links, invitations,
 *   notices). Required once any function sends them; only those functions may send From it (infra/mail-sending.ts).
 * - `onboardingFromAddress` (ONBOARDING_FROM_ADDRESS): the From of a client with no verified domain yet (the
 *   sandbox). `defaultFromAddress` is its deprecated name, still read.
 * Both go to every function: besides the senders, the settings and domain routes refuse them as a client's From or
 * domain, and the settings view shows the onboarding sender.
 */
export interface MailSenders {
  systemFromAddress: string | undefined;
  onboardingFromAddress: string | undefined;
  /**
   * Context `sesTenantReputationPolicyArn`: the SES-managed reputation policy
   * (`arn:aws:ses:<region>:aws:reputation-policy/standard|strict|none`) applied to every client's tenant. Unset:
   * SES's `standard` policy of the deployment's region (infra/mail-sending.ts); NO_REPUTATION_POLICY: none applied.
   */
  tenantReputationPolicyArn: string | undefined;
}

/** Context `sesTenantReputationPolicyArn=none`: no reputation policy is put on the tenants. */
export const NO_REPUTATION_POLICY = 'none';

/** SES's managed reputation policies, as CloudFormation's AWS::SES::Tenant checks them. */
const REPUTATION_POLICY_ARN = /^arn:[a-z0-9-]+:ses:[a-z0-9-]+:aws:reputation-policy\/(none|standard|strict)$/;

/**
 * A secret's complete ARN, with the 6 characters Secrets Manager appends to its name: a policy can then name exactly
 * that secret (a name or partial ARN needs a `-??????` wildcard).
 */
const COMPLETE_SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}$/;

/** Reads and checks the settings; a malformed value fails the synth instead of reaching a Lambda. */
export function readStackSettings(node: Node): StackSettings {
  const functionEnvironment: Record<string, string> = {};
  for (const [key, envName] of Object.entries(CONTEXT_ENVIRONMENT)) {
    const value: unknown = node.tryGetContext(key);
    if (value !== undefined && value !== null && value !== '') functionEnvironment[envName] = String(value);
  }
  checkLinksBaseUrl(functionEnvironment['LINKS_BASE_URL'], functionEnvironment['PUBLIC_BASE_URL']);
  const senderEnvironment: Record<string, string> = {};
  for (const [key, envName] of Object.entries(SENDER_CONTEXT_ENVIRONMENT)) {
    const value = readEmail(node, key);
    if (value !== undefined) senderEnvironment[envName] = value;
  }
  const mailSenders = readMailSenders(node);
  if (mailSenders.systemFromAddress !== undefined)
    functionEnvironment['SYSTEM_FROM_EMAIL'] = mailSenders.systemFromAddress;
  if (mailSenders.onboardingFromAddress !== undefined)
    functionEnvironment['ONBOARDING_FROM_ADDRESS'] = mailSenders.onboardingFromAddress;
  return {
    deletionProtection: readBoolean(node, 'deletionProtection', true),
    detachRoutes: readBoolean(node, 'detachRoutes', false),
    throttle: {
      rateLimit: readPositiveInteger(node, 'throttleRateLimit', STAGE_THROTTLE_DEFAULTS.rateLimit),
      burstLimit: readPositiveInteger(node, 'throttleBurstLimit', STAGE_THROTTLE_DEFAULTS.burstLimit),
    },
    ingestThrottle: {
      rateLimit: readPositiveInteger(node, 'ingestThrottleRateLimit', INGEST_THROTTLE_DEFAULTS.rateLimit),
      burstLimit: readPositiveInteger(node, 'ingestThrottleBurstLimit', INGEST_THROTTLE_DEFAULTS.burstLimit),
    },
    functionEnvironment,
    jwtHs256SecretArn: readJwtHs256SecretArn(node),
    senderEnvironment,
    mailSenders,
    cors: readCors(node),
    onCallEmail: readEmail(node, 'onCallEmail'),
    queueConcurrency: {
      sesMaxSendRate: readPositiveNumber(node, 'sesMaxSendRate', SES_DEFAULT_MAX_SEND_RATE),
      // Checked against Lambda's 2–1000 where it is used (sizeQueueFunctions).
      maxConcurrency: Object.fromEntries(
        queueFunctions.flatMap(({ handler }) => {
          const key = maxConcurrencyContextKey(handler);
          return node.tryGetContext(key) === undefined ? [] : [[handler, readPositiveInteger(node, key, 0)]];
        }),
      ),
    },
  };
}

/**
 * The links' own host: an https origin, and not the dashboard's (`publicBaseUrl`), or it separates nothing. A page
 * opened from a link then never shares the dashboard's cookies or origin (docs/deploy.md "Links in e-mails on a host of their own").
 */
function checkLinksBaseUrl(links: string | undefined, publicBaseUrl: string | undefined): void {
  if (links === undefined) return;
  let url: URL;
  try {
    url = new URL(links);
  } catch {
    throw new Error(`Context "linksBaseUrl" must be an https:// URL (e.g. https://links.example.com), not "${links}"`);
  }
  if (url.protocol !== 'https:') throw new Error(`Context "linksBaseUrl" must be an https:// URL, not "${links}"`);
  if (publicBaseUrl !== undefined && URL.canParse(publicBaseUrl) && new URL(publicBaseUrl).host === url.host) {
    throw new Error(
      `Context "linksBaseUrl" must be a host other than publicBaseUrl's (${url.host}): the links' own host keeps them apart from the dashboard`,
    );
  }
}

/**
 * The service's two senders must be on different domains: the sign-in sender's reputation and its IAM fence
 * (infra/mail-sending.ts denies clients' sends at its domain) would otherwise cover every sandboxed client's mail.
 * `defaultFromAddress` was the clients' default From and the sign-in sender's fallback; it now means the onboarding
 * sender only, and is never copied into SYSTEM_FROM_EMAIL.
 */
function readMailSenders(node: Node): MailSenders {
  const systemFromAddress = readEmail(node, 'systemFromEmail');
  const onboarding = readEmail(node, 'onboardingFromAddress');
  const deprecated = readEmail(node, 'defaultFromAddress');
  if (onboarding !== undefined && deprecated !== undefined && onboarding !== deprecated) {
    throw new Error(
      `Context "defaultFromAddress" is the deprecated name of "onboardingFromAddress"; give one of them, not two ` +
        `different addresses (${deprecated}, ${onboarding})`,
    );
  }
  const onboardingFromAddress = onboarding ?? deprecated;
  if (
    systemFromAddress !== undefined &&
    onboardingFromAddress !== undefined &&
    domainOf(systemFromAddress) === domainOf(onboardingFromAddress)
  ) {
    throw new Error(
      `Context "onboardingFromAddress" (${onboardingFromAddress}) must be on a domain other than "systemFromEmail" ` +
        `(${systemFromAddress}): clients in the sandbox send From the onboarding sender, and may never send at the ` +
        `domain of the service's own sign-in mail. Verify a second domain in SES for it (docs/deploy.md).`,
    );
  }
  const policy: unknown = node.tryGetContext('sesTenantReputationPolicyArn');
  if (
    !isAbsent(policy) &&
    policy !== NO_REPUTATION_POLICY &&
    (typeof policy !== 'string' || !REPUTATION_POLICY_ARN.test(policy))
  ) {
    throw new Error(
      `Context "sesTenantReputationPolicyArn" must be an SES-managed reputation policy's ARN ` +
        `(arn:aws:ses:<region>:aws:reputation-policy/standard, strict or none) or "none" for no policy ` +
        `(unset: the region's standard policy), got ${JSON.stringify(policy)}`,
    );
  }
  return {
    systemFromAddress,
    onboardingFromAddress,
    tenantReputationPolicyArn: isAbsent(policy) ? undefined : (policy as string),
  };
}

/** The domain of an address, lower-case (domains compare without case). */
export const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

function readJwtHs256SecretArn(node: Node): string | undefined {
  if (!isAbsent(node.tryGetContext('jwtHs256Secret'))) {
    throw new Error(
      'Context "jwtHs256Secret" is no longer read: a secret given as context lands in the template and the functions\' ' +
        'environment. Store the HS256 key in Secrets Manager (aws secretsmanager create-secret --name els/jwt-hs256 ' +
        '--secret-string <key>) and pass the ARN it prints: -c jwtHs256SecretArn=arn:aws:secretsmanager:…:secret:els/jwt-hs256-AbCdEf',
    );
  }
  const value: unknown = node.tryGetContext('jwtHs256SecretArn');
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || !COMPLETE_SECRET_ARN.test(value)) {
    throw new Error(
      `Context "jwtHs256SecretArn" must be a Secrets Manager secret's complete ARN (ending in the 6 characters ` +
        `Secrets Manager appends to the name, as create-secret prints it), got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

const isAbsent = (value: unknown): boolean => value === undefined || value === null || value === '';

function readEmail(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (!z.email().safeParse(value).success) {
    throw new Error(`Context "${key}" must be an e-mail address, got ${JSON.stringify(value)}`);
  }
  return String(value);
}

function readCors(node: Node): CorsPolicy | undefined {
  const context: unknown = node.tryGetContext('corsOrigins');
  if (context !== undefined && context !== null)
    return corsPolicy(parseCorsOrigins(String(context), 'Context "corsOrigins"'));
  return corsPolicy(parseCorsOrigins(process.env['CORS_ORIGINS']));
}

// `-c key=false` arrives as the string "false", cdk.json gives a real boolean.
function readBoolean(node: Node, key: string, fallback: boolean): boolean {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`Context "${key}" must be true or false, got ${JSON.stringify(value)}`);
}

function readPositiveNumber(node: Node, key: string, fallback: number): number {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new Error(`Context "${key}" must be a positive number, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function readPositiveInteger(node: Node, key: string, fallback: number): number {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new Error(`Context "${key}" must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return parsed;
}
