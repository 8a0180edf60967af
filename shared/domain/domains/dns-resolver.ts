/**
 * What a domain's checks read from DNS: the ownership challenge, the DKIM CNAMEs, the MAIL FROM MX, the DMARC TXT.
 * An empty answer means the name has no such record (NXDOMAIN, no data); any other failure throws, so a check never
 * turns a DNS outage into "not published" and never fails or expires a claim on one.
 */
export interface DnsResolver {
  /** Each TXT record of `name` as one string (a record's character-strings joined, as RFC 7208 reads them). */
  txt(name: string): Promise<string[]>;
  cname(name: string): Promise<string[]>;
  mx(name: string): Promise<{ exchange: string; priority: number }[]>;
}
