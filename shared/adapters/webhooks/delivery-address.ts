import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isBlockedAddress } from '../../domain/webhooks/blocked-addresses.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (node:dns lookup, as a connection would). */
export type HostLookup = (host: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

export type AddressDecision = ({ ok: true } & ResolvedAddress) | { ok: false; error: string };

/**
 * The address a delivery connects to, decided at delivery time (DNS rebinding: a name checked when the URL was
 * saved may resolve elsewhere now). Unless private URLs are allowed, the host is refused when ANY of its addresses
 * is loopback, private, link-local, unique-local, CGNAT or metadata; the sender then connects to the address
 * checked here, so a second DNS answer cannot differ.
 */
export async function resolveDeliveryAddress(
  host: string,
  options: { allowPrivateUrls: boolean; lookup?: HostLookup },
): Promise<AddressDecision> {
  let addresses: ResolvedAddress[];
  const family = isIP(host);
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (error) {
      return {
        ok: false,
        error: `dns_failed: ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    if (addresses.length === 0) return { ok: false, error: `dns_failed: ${host} has no address` };
  }
  if (!options.allowPrivateUrls) {
    const refused = addresses.filter((a) => isBlockedAddress(a.address));
    if (refused.length > 0) {
      return {
        ok: false,
        error: `address_refused: ${host} resolves to ${refused.map((a) => a.address).join(', ')}, a loopback, private, link-local or metadata address`,
      };
    }
  }
  return { ok: true, address: addresses[0]!.address, family: addresses[0]!.family };
}
