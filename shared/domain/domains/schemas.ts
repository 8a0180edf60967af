import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { issueCondition } from '../../validation/issue-items.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import {
  CHALLENGE_LABEL,
  CHALLENGE_PREFIX,
  MAIL_FROM_LABEL,
  MAX_DOMAINS,
  PROOF_WINDOW_HOURS,
  VERIFY_WINDOW_HOURS,
} from '../../public/domain-rules.js';
import { NOT_A_DOMAIN, normalizeDomain } from './normalize-domain.js';

/** `{id}` of the domain paths; anything that is not a plain id names no domain (→ 404). */
export const DomainIdParams = z.object({ id: plainIdParam(12, 'The domain id') });

/** Longest input looked at: a domain is at most 253 characters; a little room for spaces and a trailing dot. */
const MAX_DOMAIN_INPUT = 300;

/** A domain name in ASCII: letter-digit-hyphen labels of 1–63, a top-level label starting with a letter. */
const DOMAIN_PATTERN =
  '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?$';

const domainName = z
  .string({ error: (i) => (i.input === undefined ? 'domain is required' : 'Must be a string') })
  .check(
    z.maxLength(MAX_DOMAIN_INPUT, { message: `Must be at most ${MAX_DOMAIN_INPUT} characters`, abort: true }),
    z.refine((v: string) => normalizeDomain(v) !== undefined, {
      message: NOT_A_DOMAIN,
      params: issueCondition('format'),
      abort: true,
    }),
    z.overwrite((v: string) => normalizeDomain(v) ?? v),
    z.meta({
      description:
        'The domain to send From, e.g. example.com. Trimmed, lower-cased, a trailing dot dropped, an ' +
        'internationalized name stored as its A-label (bücher.example → xn--bcher-kva.example). Not a domain ' +
        "name: 422 `format`. One of the service's own domains, or a parent or subdomain of one, or amazonses.com: " +
        '422 `unsafe`. A subdomain is a domain of its own: verifying example.com does not cover mail.example.com. ' +
        'The pattern states the ASCII form; the Unicode form of an internationalized name is taken too.',
      examples: ['example.com'],
      // The name as most clients send it, in ASCII. The server also takes surrounding spaces and an
      // internationalized name in its Unicode form (the description says so), so the pattern is the stricter side.
      pattern: DOMAIN_PATTERN,
      maxLength: 253,
    }),
  );

/** POST /client/domains. */
export const DomainBody = z.object({ domain: domainName });
export type DomainBody = z.output<typeof DomainBody>;

export const DOMAIN_STATUSES = ['awaiting_proof', 'verifying', 'verified', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const DOMAIN_FAILURE_REASONS = [
  'challenge_not_found',
  'claimed_elsewhere',
  'dkim_not_found',
  'identity_refused',
] as const;
export type DomainFailureReason = (typeof DOMAIN_FAILURE_REASONS)[number];

export const DMARC_POLICIES = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof DMARC_POLICIES)[number];

export const DNS_RECORD_PURPOSES = ['ownership', 'dkim', 'mail_from_mx', 'mail_from_spf', 'dmarc'] as const;
export const DNS_RECORD_STATUSES = ['pending', 'found', 'verified', 'failed', 'missing', 'not_applicable'] as const;
export type DnsRecordStatus = (typeof DNS_RECORD_STATUSES)[number];

/** SES's DKIM and MAIL FROM statuses, as stored from the last check. */
const SesStatus = z.enum(['PENDING', 'SUCCESS', 'FAILED', 'TEMPORARY_FAILURE', 'NOT_STARTED']);

/** A claim of a sending domain as stored (CLIENT#<id> / DOMAIN#<id>); parsed on the way out of the store. */
export const DomainRecord = z.object({
  id: z.int().check(z.gte(1)),
  client_id: z.int().check(z.gte(1)),
  domain: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  failure_reason: z.optional(z.enum(DOMAIN_FAILURE_REASONS)),
  /** This claim's own random token: the ownership record's value is CHALLENGE_PREFIX + it. */
  challenge_token: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  proven_at: z.optional(z.string()),
  identity_created_at: z.optional(z.string()),
  verified_at: z.optional(z.string()),
  failed_at: z.optional(z.string()),
  dkim_tokens: z.optional(z.array(z.string())),
  dkim_status: z.optional(SesStatus),
  mail_from_domain: z.string(),
  mail_from_status: z.optional(SesStatus),
  dmarc: z.optional(
    z.object({
      record: z.nullable(z.string()),
      policy: z.nullable(z.enum(DMARC_POLICIES)),
      checked_at: z.string(),
    }),
  ),
  /** Which of the records to publish the last check saw in DNS (after proof): DKIM by token, the MAIL FROM pair. */
  published: z.optional(
    z.object({ dkim: z.array(z.boolean()), mail_from_mx: z.boolean(), mail_from_spf: z.boolean() }),
  ),
  checks: z.int().check(z.gte(0)),
  last_checked_at: z.optional(z.string()),
  next_check_at: z.optional(z.string()),
  /** TTL (epoch seconds): a failed claim disappears this long after it failed. */
  expires_at: z.optional(z.number()),
  version: z.int().check(z.gte(0)),
});
export type DomainRecord = z.output<typeof DomainRecord>;

/** One DNS record the client publishes, as a DomainView shows it. */
export const DnsRecordView = z
  .object({
    purpose: z.enum(DNS_RECORD_PURPOSES).check(
      z.meta({
        description:
          `ownership: the TXT record at ${CHALLENGE_LABEL}.<domain> proving the client controls the domain (its ` +
          "value is this claim's own); dkim: the three Easy DKIM CNAMEs SES signs with; mail_from_mx and " +
          `mail_from_spf: the custom MAIL FROM subdomain ${MAIL_FROM_LABEL}.<domain>, so SPF aligns with the From ` +
          'domain; dmarc: the policy record at _dmarc.<domain>',
      }),
    ),
    name: z.string().check(z.meta({ description: "The record's full name, without the trailing dot" })),
    type: z.enum(['TXT', 'CNAME', 'MX']),
    value: z
      .string()
      .check(z.meta({ description: "The record's value (a TXT record's text without quotes; an MX record's host)" })),
    priority: z.nullable(z.int()).check(z.meta({ description: "An MX record's preference; null for the others" })),
    required: z.boolean().check(
      z.meta({
        description:
          'Needed for the domain to become verified (ownership, DKIM). MAIL FROM and DMARC are advised: without ' +
          'them mail still goes out, but SPF does not align and Gmail and Yahoo ask bulk senders for DMARC',
      }),
    ),
    status: z.enum(DNS_RECORD_STATUSES).check(
      z.meta({
        description:
          'pending: not seen yet; found: seen in DNS; verified: SES confirmed it; failed: SES gave up on it; ' +
          'missing: absent or unusable where one is advised; not_applicable: no longer needed (the ownership ' +
          'record once proven: it may then be removed)',
      }),
    ),
  })
  .check(z.meta({ id: 'DnsRecord', description: 'A DNS record to publish for a sending domain.' }));
export type DnsRecordView = z.output<typeof DnsRecordView>;

export const DmarcView = z
  .object({
    record: z.nullable(z.string()).check(z.meta({ description: 'The v=DMARC1 record found, or null' })),
    policy: z
      .nullable(z.enum(DMARC_POLICIES))
      .check(z.meta({ description: 'Its p= tag; null without one usable record (none, several, or malformed)' })),
    meets_bulk_sender_rules: z
      .boolean()
      .check(z.meta({ description: 'A usable DMARC record is published (any policy, p=none included)' })),
    advice: z.string(),
  })
  .check(z.meta({ id: 'Dmarc', description: "The domain's DMARC policy as last read from DNS." }));
export type DmarcView = z.output<typeof DmarcView>;

const domainViewShape = {
  id: z.int().check(z.gte(1)),
  domain: z.string().check(z.meta({ description: 'The domain, lower-case; an internationalized name as its A-label' })),
  status: z.enum(DOMAIN_STATUSES).check(
    z.meta({
      description:
        `awaiting_proof: publish the ownership TXT record (within ${PROOF_WINDOW_HOURS} h); verifying: ownership ` +
        `proven, the DKIM records are shown, SES waits for them (within ${VERIFY_WINDOW_HOURS} h); verified: the ` +
        'client may send From any address at exactly this domain; failed: see failure_reason, delete it and add ' +
        'it again',
    }),
  ),
  failure_reason: z.nullable(z.enum(DOMAIN_FAILURE_REASONS)).check(
    z.meta({
      description:
        'challenge_not_found: no ownership record within the proof window; claimed_elsewhere: another account ' +
        'proved the domain first; dkim_not_found: SES did not find the DKIM records in time; identity_refused: ' +
        'SES refused the domain',
    }),
  ),
  created_at: UtcTimestamp,
  proven_at: z.nullable(UtcTimestamp),
  verified_at: z.nullable(UtcTimestamp),
  proof_expires_at: z
    .nullable(UtcTimestamp)
    .check(z.meta({ description: 'While awaiting_proof: when the claim fails without its ownership record' })),
  last_checked_at: z.nullable(UtcTimestamp),
  next_check_at: z
    .nullable(UtcTimestamp)
    .check(z.meta({ description: 'When the service looks again by itself (null once verified or failed)' })),
  records: z.array(DnsRecordView),
  mail_from_domain: z.string().check(z.meta({ description: `The MAIL FROM subdomain: ${MAIL_FROM_LABEL}.<domain>` })),
  dmarc: DmarcView,
};

/** A sending domain as the API shows it (OpenAPI `Domain`). */
export const DomainView = z.object(domainViewShape).check(
  z.meta({
    id: 'Domain',
    description:
      'A domain the client sends From. Proven by a TXT record at ' +
      `${CHALLENGE_LABEL}.<domain> valued ${CHALLENGE_PREFIX}<token>, then verified by SES through its DKIM records.`,
  }),
);
export type DomainView = z.output<typeof DomainView>;

export const DomainList = z.object({ domains: z.array(DomainView) });
export const DomainListMeta = z.object({
  total: z.int().check(z.gte(0)),
  max_domains: z.int().check(z.meta({ description: `The most domains a client may hold (${MAX_DOMAINS})` })),
});

/** DELETE /client/domains/{id}: what the domain was, and a warning when the settings' From was at it. */
export const DeletedDomainView = z
  .object({
    ...domainViewShape,
    warning: z.nullable(z.string()).check(
      z.meta({
        description:
          "Set when the settings' email_from_address was at this domain: mail now goes From another verified " +
          'domain, or from the onboarding sender (the sandbox) when none is left',
      }),
    ),
  })
  .check(z.meta({ id: 'DeletedDomain', description: 'A sending domain as it was before its removal.' }));
export type DeletedDomainView = z.output<typeof DeletedDomainView>;
