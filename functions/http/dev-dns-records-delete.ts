import { DnsRecordsBody, DnsRecordsView } from '../../shared/adapters/dns/dns-record-schema.js';
import { normalizedDnsRecord } from '../../shared/adapters/dns/table-dns-records.js';
import { localDnsRecords } from '../../shared/composition/providers/local-dns-records.js';
import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';

/**
 * DELETE /api/v1/dev/dns-records — local runtime only. Removes those values from the local runtime's DNS (a record
 * that was not published is no error), so a developer can watch a check fail or a verified domain lose its DKIM.
 */
export const handler = publicApi(
  {
    summary: 'Remove DNS records from the local DNS (local runtime only)',
    body: DnsRecordsBody,
    responses: { 200: DnsRecordsView },
  },
  [localDnsRecords],
  async ({ body }, { deps }) => {
    await deps.localDnsRecords.unpublish(body.records);
    return ok({ records: body.records.map(normalizedDnsRecord) }, 'Records removed');
  },
);
