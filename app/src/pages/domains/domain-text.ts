import {
  PROOF_WINDOW_HOURS,
  SES_SIMULATOR_DOMAIN,
  VERIFY_WINDOW_HOURS,
} from '../../../../shared/public/domain-rules.js';
import type { components } from '../../api/openapi.js';

export type Domain = components['schemas']['Domain'];
export type DnsRecord = components['schemas']['DnsRecord'];

/** A domain's status as the pages say it (its class is `outcome-<status>`). */
export const DOMAIN_STATUS_TEXT: Record<Domain['status'], string> = {
  awaiting_proof: 'Awaiting proof',
  verifying: 'Verifying',
  verified: 'Verified',
  failed: 'Failed',
};

/** Why a domain failed, and what to do about it. */
export const FAILURE_TEXT: Record<NonNullable<Domain['failure_reason']>, string> = {
  challenge_not_found: `The ownership record was not found within ${PROOF_WINDOW_HOURS} hours.`,
  claimed_elsewhere: 'Another account proved this domain first. If you control it, contact support.',
  dkim_not_found: `SES did not find the DKIM records within ${VERIFY_WINDOW_HOURS} hours.`,
  identity_refused: 'SES refused the domain.',
};

/** A DNS record's status as the records table says it. */
export const RECORD_STATUS_TEXT: Record<DnsRecord['status'], string> = {
  pending: 'Not seen yet',
  found: 'Found',
  verified: 'Verified',
  failed: 'Failed',
  missing: 'Missing',
  not_applicable: 'No longer needed',
};

/** What each record is for. */
export const PURPOSE_TEXT: Record<DnsRecord['purpose'], string> = {
  ownership: 'Ownership',
  dkim: 'DKIM',
  mail_from_mx: 'MAIL FROM (MX)',
  mail_from_spf: 'MAIL FROM (SPF)',
  dmarc: 'DMARC',
};

/** What the sandbox is, for a client without a verified domain. */
export const SANDBOX_TEXT =
  'Until one of your domains is verified you are in the sandbox: your e-mails go out from the service’s onboarding ' +
  `address under your account’s name, and only to your dashboard’s users and SES’s mailbox simulator ` +
  `(…@${SES_SIMULATOR_DOMAIN}); every other recipient is skipped.`;
