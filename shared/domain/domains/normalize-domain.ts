import { domainToASCII } from 'node:url';
import { invalidField } from '../../errors.js';

/** DNS's limits (RFC 1035 §2.3.4): a name of at most 253 characters written out, each label at most 63. */
const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A domain name as the service stores and compares it: trimmed, lower-case, without the root's trailing dot, an
 * internationalized name as its A-label (`bücher.example` → `xn--bcher-kva.example`, the form DNS and SES use).
 * Undefined when it is not a host name of at least two labels (letters, digits, inner hyphens; 1-63 characters each;
 * 253 in all) whose last label is not all digits (an IP address is not a domain).
 */
export function normalizeDomain(input: string): string | undefined {
  let name = input.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  // WHATWG's domain-to-ASCII (UTS #46): '' for a name it cannot map (bad punycode, forbidden code points).
  const ascii = name === '' ? '' : domainToASCII(name);
  if (ascii === '' || ascii.length > MAX_DOMAIN_LENGTH) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return undefined;
  return ascii;
}

/** Whether `domain` is `other`, a subdomain of it, or a parent of it. Both normalized. */
export const domainsOverlap = (domain: string, other: string): boolean =>
  domain === other || domain.endsWith(`.${other}`) || other.endsWith(`.${domain}`);

/**
 * The service's own domain among `reserved` that `domain` equals, lies under or above; undefined when none. A client
 * may not claim one: its mail would pass for the service's own (sign-in links, the onboarding sender, the links' host),
 * and no client may hold SES's own domain.
 */
export const reservedDomainOf = (domain: string, reserved: readonly string[]): string | undefined =>
  reserved.find((own) => domainsOverlap(domain, own));

/** The domain of an e-mail address: after its last `@`, normalized; undefined when that is no domain. */
export const domainOfAddress = (address: string): string | undefined => {
  const at = address.lastIndexOf('@');
  return at < 0 ? undefined : normalizeDomain(address.slice(at + 1));
};

/**
 * The name a client may claim, normalized: 422 `format` on `domain` when it is no domain name, 422 `unsafe` when it
 * overlaps one of the service's own domains (`reserved`, normalized).
 */
export function claimableDomain(input: string, reserved: readonly string[]): string {
  const domain = normalizeDomain(input);
  if (domain === undefined) throw invalidField('format', 'domain', NOT_A_DOMAIN);
  const own = reservedDomainOf(domain, reserved);
  if (own !== undefined) {
    throw invalidField(
      'unsafe',
      'domain',
      own === domain
        ? `${domain} is one of the service's own domains`
        : `${domain} is a parent or subdomain of one of the service's own domains (${own})`,
    );
  }
  return domain;
}

export const NOT_A_DOMAIN =
  'Must be a domain name such as example.com: at least two labels of letters, digits and inner hyphens (at most 63 ' +
  'characters each, 253 in all), not an IP address';
