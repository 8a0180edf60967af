import { DnsRecordsQuery, DnsRecordsView } from '../../shared/adapters/dns/dns-record-schema.js';
import { localDnsRecords } from '../../shared/composition/providers/local-dns-records.js';
import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';

/**
 * GET /api/v1/dev/dns-records?name= — local runtime only. The records published at that name (TXT, CNAME, MX), as
 * the local DNS answers them; an empty list when there are none. On AWS the route does not exist (404), which is
 * how the dashboard knows to offer its "publish locally" panel only here.
 */
export const handler = publicApi(
  {
    summary: 'Read the local DNS at a name (local runtime only)',
    query: DnsRecordsQuery,
    responses: { 200: DnsRecordsView },
  },
  [localDnsRecords],
  async ({ query }, { deps }) => ok({ records: await deps.localDnsRecords.published(query.name) }),
);
