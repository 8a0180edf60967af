import parseDmarc from 'dmarc-parse';
import { DMARC_ADVICE } from '../../public/domain-rules.js';
import type { DmarcPolicy, DmarcView, DomainRecord } from './schemas.js';

/** What one read of `_dmarc.<domain>` found: the one DMARC record and its policy, or nulls. */
export interface DmarcFinding {
  record: string | null;
  policy: DmarcPolicy | null;
}

/**
 * A TXT record is a DMARC record when it starts with the version tag (RFC 7489 §6.6.3). The tag's name is
 * case-insensitive, its value `DMARC1` is not (the ABNF spells it in %x codes).
 */
const isDmarcRecord = (txt: string): boolean => /^[vV]\s*=\s*DMARC1\s*(;|$)/.test(txt.trim());

/**
 * The DMARC policy a domain publishes, from the TXT records at `_dmarc.<domain>`. Only the one record starting with
 * `v=DMARC1` counts: none, or several (RFC 7489 §6.6.3 discards them all), is no record. Its tags are read by
 * dmarc-parse, which checks each known tag's value (`p` one of none/quarantine/reject); a record whose `p` is missing
 * or invalid has no usable policy and counts as missing.
 */
export function dmarcOf(txtRecords: readonly string[]): DmarcFinding {
  const candidates = txtRecords.filter(isDmarcRecord);
  if (candidates.length !== 1) return { record: null, policy: null };
  const record = (candidates[0] as string).trim();
  // dmarc-parse keys each tag by its name as written; tag names are case-insensitive.
  const tags = Object.entries(parseDmarc(record).tags);
  const policy = tags.find(([name]) => name.toLowerCase() === 'p')?.[1]?.value.toLowerCase();
  const known = policy === 'none' || policy === 'quarantine' || policy === 'reject';
  return known ? { record, policy } : { record, policy: null };
}

/** The DMARC part of a domain's view: what the last check read, with the mailbox providers' rule. */
export function dmarcViewOf(record: Pick<DomainRecord, 'dmarc'>): DmarcView {
  const found = record.dmarc;
  const policy = found?.policy ?? null;
  return {
    record: found?.record ?? null,
    policy,
    meets_bulk_sender_rules: policy !== null,
    advice: DMARC_ADVICE,
  };
}

/** The record suggested while none is usable: report-only, reports to the domain itself. */
export const suggestedDmarcValue = (domain: string): string => `v=DMARC1; p=none; rua=mailto:dmarc@${domain}`;
