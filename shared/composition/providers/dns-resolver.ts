import { NodeDnsResolver } from '../../adapters/dns/node-dns-resolver.js';
import { provide } from '../container.js';
import { localDnsRecords } from './local-dns-records.js';

/**
 * Where a domain check reads DNS: the internet's (DNS_RESOLVER=system), or the records a developer published to the
 * local runtime's table (DNS_RESOLVER=local), where no real domain points at this machine.
 */
export const dnsResolver = provide('dnsResolver', (c) =>
  c.config.DNS_RESOLVER === 'local' ? c.use(localDnsRecords) : new NodeDnsResolver(),
);
