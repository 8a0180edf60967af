import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Addresses a webhook may never reach (a client's URL must not make us call our own network): anything IANA's special-purpose registries set apart —
 * loopback, private, link-local (the 169.254.169.254 and fd00:ec2::254 metadata services among them), unique-local,
 * CGNAT, multicast, reserved, documentation and benchmarking ranges, and the IPv6 forms that carry an IPv4 address to
 * another network (NAT64 64:ff9b::/96 and 64:ff9b:1::/48, SIIT ::ffff:0:0:0/96, 6to4, Teredo). ipaddr.js names
 * the ranges, so the list follows the registries rather than a hand-kept table: only its `unicast` is reachable.
 * Two IPv6 forms are read here: IPv4-mapped addresses (::ffff:0:0/96) are connected to as the IPv4 address inside,
 * so that address is judged; IPv4-compatible ones (::/96, deprecated by RFC 4291) are refused whatever they hold.
 */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** The range ipaddr.js (or the IPv4-compatible rule) gives an address: `unicast` for an ordinary public one. */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (address.kind() === 'ipv4') return address.range();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range();
  const range = v6.range();
  // `::` and `::1` keep their own names; the rest of ::/96 is ipaddr.js's `unicast`, which it is not.
  return range === 'unicast' && v6.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : range;
}

/** True when `address` (a literal IPv4 or IPv6 address) lies in a range a webhook may not reach; false for a name. */
export function isBlockedAddress(address: string): boolean {
  // node:net decides what is an address literal (ipaddr.js also reads forms such as `0x7f.1`, which a URL has
  // already normalised and DNS never answers).
  const family = isIP(address);
  if (family === 0) return false;
  return rangeOf(ipaddr.parse(family === 6 ? canonicalIPv6(address) : address)) !== 'unicast';
}

/**
 * An IPv6 literal as the WHATWG URL parser writes it (hex groups, no zone): ipaddr.js reads a dotted tail such as
 * `::8.8.8.8` as IPv4-mapped, where the address is IPv4-compatible (`::808:808`) and is connected to as such.
 */
function canonicalIPv6(address: string): string {
  return new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
}

/** The host of a URL as DNS or an address literal: `[::1]` → `::1`. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');
