import { DnsRecordsBody, DnsRecordsView } from '../../shared/adapters/dns/dns-record-schema.js';
import { normalizedDnsRecord } from '../../shared/adapters/dns/table-dns-records.js';
import { localDnsRecords } from '../../shared/composition/providers/local-dns-records.js';
import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';

/**
 * PUT /api/v1/dev/dns-records — local runtime only (`localOnly`: never built on AWS, where a domain's owner publishes
 * its records at their DNS host). Adds the records to the local runtime's DNS, which the domain checks read there
 * (DNS_RESOLVER=local). Names are lower-cased, a trailing dot dropped; a record already published stays one.
 */
export const handler = publicApi(
  {
    summary: 'Publish DNS records to the local DNS (local runtime only)',
    body: DnsRecordsBody,
    responses: { 200: DnsRecordsView },
  },
  [localDnsRecords],
  async ({ body }, { deps }) => {
    await deps.localDnsRecords.publish(body.records);
    return ok({ records: body.records.map(normalizedDnsRecord) }, 'Records published');
  },
);
