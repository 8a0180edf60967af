import { CHALLENGE_LABEL, CHALLENGE_PREFIX, PROOF_WINDOW_HOURS } from '../../public/domain-rules.js';
import { dmarcViewOf, suggestedDmarcValue } from './dmarc.js';
import type { DnsRecordStatus, DnsRecordView, DomainRecord, DomainView } from './schemas.js';

/** What the domain rules read from the deployment (shared/composition/domain-settings.ts builds it from config). */
export interface DomainSettings {
  /** SES's region: its MAIL FROM MX host is `feedback-smtp.<region>.amazonses.com`. */
  region: string;
  /** The service's own domains, normalized: no client may claim one, its parent or a subdomain. */
  reservedDomains: readonly string[];
}

const HOUR_MS = 3_600_000;

export const challengeName = (domain: string): string => `${CHALLENGE_LABEL}.${domain}`;
export const challengeValue = (record: Pick<DomainRecord, 'challenge_token'>): string =>
  `${CHALLENGE_PREFIX}${record.challenge_token}`;
export const dmarcName = (domain: string): string => `_dmarc.${domain}`;
export const MAIL_FROM_SPF = 'v=spf1 include:amazonses.com ~all';

/** When an unproven claim fails without its ownership record. */
export const proofDeadlineOf = (record: Pick<DomainRecord, 'created_at'>): Date =>
  new Date(Date.parse(record.created_at) + PROOF_WINDOW_HOURS * HOUR_MS);

/** A record's status: SES's word first (SUCCESS verified, FAILED failed), else whether the last check saw it. */
const recordStatus = (sesStatus: string | undefined, seen: boolean | undefined): DnsRecordStatus =>
  sesStatus === 'SUCCESS' ? 'verified' : sesStatus === 'FAILED' ? 'failed' : seen ? 'found' : 'pending';

export const dkimName = (token: string, domain: string): string => `${token}._domainkey.${domain}`;
export const dkimTarget = (token: string): string => `${token}.dkim.amazonses.com`;
export const mailFromMxHost = (region: string): string => `feedback-smtp.${region}.amazonses.com`;

/** The records the client publishes: only the ownership record until it is proven, then DKIM, MAIL FROM, DMARC. */
function recordsOf(record: DomainRecord, settings: Pick<DomainSettings, 'region'>): DnsRecordView[] {
  const proven = record.proven_at !== undefined;
  const ownership: DnsRecordView = {
    purpose: 'ownership',
    name: challengeName(record.domain),
    type: 'TXT',
    value: challengeValue(record),
    priority: null,
    required: true,
    status: proven ? 'not_applicable' : record.status === 'failed' ? 'missing' : 'pending',
  };
  if (!proven) return [ownership];
  const seen = record.published;
  const dkim = (record.dkim_tokens ?? []).map(
    (token, at): DnsRecordView => ({
      purpose: 'dkim',
      name: dkimName(token, record.domain),
      type: 'CNAME',
      value: dkimTarget(token),
      priority: null,
      required: true,
      status: recordStatus(record.dkim_status, seen?.dkim[at]),
    }),
  );
  const dmarc = record.dmarc;
  return [
    ownership,
    ...dkim,
    {
      purpose: 'mail_from_mx',
      name: record.mail_from_domain,
      type: 'MX',
      value: mailFromMxHost(settings.region),
      priority: 10,
      required: false,
      status: recordStatus(record.mail_from_status, seen?.mail_from_mx),
    },
    {
      purpose: 'mail_from_spf',
      name: record.mail_from_domain,
      type: 'TXT',
      value: MAIL_FROM_SPF,
      priority: null,
      required: false,
      status: recordStatus(record.mail_from_status, seen?.mail_from_spf),
    },
    {
      purpose: 'dmarc',
      name: dmarcName(record.domain),
      type: 'TXT',
      value: dmarc?.policy ? (dmarc.record as string) : suggestedDmarcValue(record.domain),
      priority: null,
      required: false,
      status: dmarc === undefined ? 'pending' : dmarc.policy ? 'found' : 'missing',
    },
  ];
}

/** A claim as the API shows it. */
export function domainViewOf(record: DomainRecord, settings: Pick<DomainSettings, 'region'>): DomainView {
  const settled = record.status === 'verified' || record.status === 'failed';
  return {
    id: record.id,
    domain: record.domain,
    status: record.status,
    failure_reason: record.failure_reason ?? null,
    created_at: record.created_at,
    proven_at: record.proven_at ?? null,
    verified_at: record.verified_at ?? null,
    proof_expires_at: record.status === 'awaiting_proof' ? proofDeadlineOf(record).toISOString() : null,
    last_checked_at: record.last_checked_at ?? null,
    next_check_at: settled ? null : (record.next_check_at ?? null),
    records: recordsOf(record, settings),
    mail_from_domain: record.mail_from_domain,
    dmarc: dmarcViewOf(record),
  };
}
