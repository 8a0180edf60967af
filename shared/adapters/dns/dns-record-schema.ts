import * as z from '../../validation/zod.js';

const name = z.string().check(
  z.trim(),
  z.minLength(1, 'Must not be blank'),
  z.maxLength(254, 'Must be at most 254 characters'),
  // Letters, digits, hyphens and underscores (`_dmarc`, `<token>._domainkey`) in dot-separated labels.
  z.regex(/^([a-z0-9_-]+\.)*[a-z0-9_-]+\.?$/i, 'Must be a DNS name'),
);

/** One record of the local runtime's DNS, as the dev routes take it and a domain's view lists it. */
export const DnsRecordInput = z.object({
  name,
  type: z.enum(['TXT', 'CNAME', 'MX']),
  value: z.string().check(z.minLength(1, 'Must not be empty'), z.maxLength(4096, 'Must be at most 4096 characters')),
  /** MX only; 10 when absent. null as a domain's view lists it for other types, so its records can be sent as they are. */
  priority: z.optional(z.nullable(z.int().check(z.gte(0), z.lte(65535)))),
});

/** PUT and DELETE /dev/dns-records. */
export const DnsRecordsBody = z.object({
  records: z.array(DnsRecordInput).check(z.minLength(1), z.maxLength(50)),
});

/** GET /dev/dns-records?name= */
export const DnsRecordsQuery = z.object({ name });

export const DnsRecordsView = z.object({
  records: z.array(DnsRecordInput),
});
