import { Resolver } from 'node:dns/promises';
import type { DnsResolver } from '../../domain/domains/dns-resolver.js';
import { dnsNameOf } from './table-dns-records.js';

/** What the adapter uses of node's promise Resolver (a test passes a fake). */
export type DnsLookups = Pick<Resolver, 'resolveTxt' | 'resolveCname' | 'resolveMx'>;

/**
 * The codes by which a resolver says the name has no such record: no data for the type, or no such name (NXDOMAIN).
 * Anything else (SERVFAIL, a timeout, a refused query) is a failure to learn the answer, and throws.
 */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * The internet's DNS through node's c-ares resolver: 2 s per try, two tries, so a check of a domain's five names
 * stays within a few seconds even when a server is slow. Names are looked up lower-case without the trailing dot.
 */
export class NodeDnsResolver implements DnsResolver {
  constructor(private readonly resolver: DnsLookups = new Resolver({ timeout: 2000, tries: 2 })) {}

  async txt(name: string): Promise<string[]> {
    // A TXT record is a list of character-strings of at most 255 bytes; a long value (a DKIM key, an SPF policy)
    // is split across them and read as their concatenation.
    const records = await absentAsEmpty(this.resolver.resolveTxt(dnsNameOf(name)));
    return records.map((chunks) => chunks.join(''));
  }

  async cname(name: string): Promise<string[]> {
    const targets = await absentAsEmpty(this.resolver.resolveCname(dnsNameOf(name)));
    return targets.map(dnsNameOf);
  }

  async mx(name: string): Promise<{ exchange: string; priority: number }[]> {
    const records = await absentAsEmpty(this.resolver.resolveMx(dnsNameOf(name)));
    return records.map((record) => ({ exchange: dnsNameOf(record.exchange), priority: record.priority }));
  }
}

async function absentAsEmpty<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}
