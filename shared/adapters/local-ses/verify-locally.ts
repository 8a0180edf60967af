import { checkDomain, type CheckDeps } from '../../domain/domains/check-domain.js';
import { claimDomain, type ClaimDeps } from '../../domain/domains/claim-domain.js';
import type { DnsRecordView, DomainView } from '../../domain/domains/schemas.js';
import type { DnsRecord } from '../dns/table-dns-records.js';

export type VerifyLocallyDeps = ClaimDeps &
  CheckDeps & {
    /** The local DNS the checks read (DNS_RESOLVER=local), where the records are published. */
    localDnsRecords: { publish(records: readonly DnsRecord[]): Promise<void> };
  };

const asDnsRecord = (record: DnsRecordView): DnsRecord => ({
  name: record.name,
  type: record.type,
  value: record.value,
  ...(record.priority === null ? {} : { priority: record.priority }),
});

/**
 * A domain taken through the whole verification on the local runtime, as a client would do it by hand: claim it,
 * publish the ownership record the claim answers, check (proof: the tenant and the SES identity are made), publish
 * the DKIM, MAIL FROM and DMARC records the check answers, check again. The demo client and the tests' clients are
 * made this way, through the same domain code and local stand-ins as the API's routes, so what they send is what a
 * verified client sends. Answers the verified domain; throws when it did not verify (a record the view did not list,
 * a name another client proved).
 * The second check is made at once, not answered from the first one's stored state as a quick "check now" is.
 */
export async function verifyDomainLocally(
  deps: VerifyLocallyDeps,
  clientId: number,
  domain: string,
): Promise<DomainView> {
  const claimed = await claimDomain(deps, clientId, { domain });
  await deps.localDnsRecords.publish(claimed.records.filter((r) => r.purpose === 'ownership').map(asDnsRecord));
  const proven = await checkDomain(deps, clientId, claimed.id);
  if (proven.status !== 'verifying') throw notVerified(proven);
  await deps.localDnsRecords.publish(proven.records.filter((r) => r.purpose !== 'ownership').map(asDnsRecord));
  const verified = await checkDomain(deps, clientId, claimed.id, { answerRecentAsStored: false });
  if (verified.status !== 'verified') throw notVerified(verified);
  return verified;
}

const notVerified = (view: DomainView): Error =>
  new Error(
    `${view.domain} did not verify locally: ${view.status}${view.failure_reason ? ` (${view.failure_reason})` : ''}`,
  );
