import { createHash } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { Clock } from '../../platform.js';
import type { RateDecision } from './rate-limiter.js';

/**
 * The per-IP limit of requests no client answers for (docs/decisions/0129-gateway-limits-and-anonymous-ip-limit.md, "Anonymous traffic is limited per IP"):
 * the public pages and links (/u, /v), sign-in, the docs and the dashboard's files, and any request whose credential
 * fails. It keeps one address from taking the gateway's shared budget or the table's capacity; a client's own
 * requests are never counted here (their limit is the client's, rate-limiter.ts).
 */
export const IP_WINDOW_SECONDS = 60;
/** Requests one address may make per minute, by default (config ANONYMOUS_REQUESTS_PER_MINUTE). */
export const DEFAULT_ANONYMOUS_REQUESTS_PER_MINUTE = 120;
/** Counter items are kept a minute past their window (TTL). */
const COUNTER_TTL_SECONDS = 60;
/** Windows this container already saw exhausted, at most this many remembered (a flood from many addresses). */
const MAX_REMEMBERED = 10_000;

/** One address's counter of one window, named by a digest: no address is stored. */
export interface IpRateWindow {
  ipHash: string;
  /** Start of the window, whole seconds since the epoch. */
  startsAt: number;
  /** When the counter may be dropped (epoch seconds, the store's TTL). */
  expiresAt: number;
}

/** The shared count behind the per-IP limit (DynamoDB on AWS and locally, memory in unit tests). */
export interface IpRateCounter {
  /** Adds one request to the window and answers its count including it: one write, nothing read first. */
  add(window: IpRateWindow): Promise<number>;
}

export interface IpRateLimiterDeps {
  counter: IpRateCounter;
  clock: Clock;
  /** Requests per address per window. */
  limit: number;
  /** Networks never counted (CIDR, config IP_RATE_LIMIT_EXEMPT): an operator's monitors, the local developer. */
  exempt?: readonly string[];
  /** The counter failed: the request is let through; this says so in the log. */
  onCounterError: (error: unknown) => void;
}

/** The decision in the shape the RateLimit headers are written from, under the policy name `ip`. */
export type IpRateDecision = Omit<RateDecision, 'policy'> & { policy: 'ip' };

/**
 * The eight 16-bit groups of an IPv6 literal, read from the form the WHATWG URL parser writes (RFC 5952: lower-case
 * hex, no leading zeros, one `::` at most, no dotted tail), so no address syntax is parsed here.
 */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const read = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = read(head);
  const back = tail === undefined ? [] : read(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * What an address is counted as: an IPv4 address itself (an IPv4-mapped IPv6 one as its IPv4), an IPv6 address by
 * its /64 — one subscriber's network, inside which an attacker picks any address — then SHA-256, so the table holds
 * no address. Undefined for anything that is not an address.
 */
export function ipLimitKey(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  let subject = address;
  if (family === 6) {
    const groups = ipv6Groups(address);
    const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
    subject = mapped
      ? [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.')
      : `${groups
          .slice(0, 4)
          .map((g) => g.toString(16))
          .join(':')}::/64`;
  }
  return createHash('sha256').update(subject).digest('hex');
}

/** CIDR networks (`10.0.0.0/8`, `::1/128`) as a node:net BlockList; throws a RangeError naming a bad one. */
export function networkList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = '', bits, extra] = cidr.split('/');
    const family = isIP(network);
    const prefix = Number(bits);
    if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(bits ?? '') || prefix > (family === 4 ? 32 : 128)) {
      throw new RangeError(`not a CIDR network: ${cidr}`);
    }
    list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/**
 * A fixed one-minute window per address over one shared counter, as the per-client limiter counts (one UpdateItem
 * per admitted request, nothing read first). Once this container has seen an address's window full it refuses the
 * rest of that window itself, without writing, so a flood costs about `limit` writes a window per address plus one
 * per container that joins it.
 */
export class IpRateLimiter {
  /** ip digest → start of the window this container knows to be full. */
  private readonly full = new Map<string, number>();
  private readonly exempt: BlockList | undefined;

  constructor(private readonly deps: IpRateLimiterDeps) {
    this.exempt = deps.exempt && deps.exempt.length > 0 ? networkList(deps.exempt) : undefined;
  }

  /** Counts one request from `address`; undefined when the address is not limited (exempt, or not an address). */
  async consume(address: string | undefined): Promise<IpRateDecision | undefined> {
    const key = this.keyOf(address);
    if (!key) return undefined;
    const { startsAt, decision } = this.window();
    if (this.full.get(key) === startsAt) return decision(false, 0);
    let count: number;
    try {
      count = await this.deps.counter.add({
        ipHash: key,
        startsAt,
        expiresAt: startsAt + IP_WINDOW_SECONDS + COUNTER_TTL_SECONDS,
      });
    } catch (error) {
      // As the per-client limit: the protection being unavailable is no reason to fail the request.
      this.deps.onCounterError(error);
      return decision(true, undefined);
    }
    if (count <= this.deps.limit) return decision(true, this.deps.limit - count);
    this.remember(key, startsAt);
    return decision(false, 0);
  }

  private keyOf(address: string | undefined): string | undefined {
    const family = address ? isIP(address) : 0;
    if (!address || family === 0) return undefined;
    // BlockList checks an IPv4-mapped IPv6 address against the IPv4 networks too.
    if (this.exempt?.check(address, family === 4 ? 'ipv4' : 'ipv6')) return undefined;
    return ipLimitKey(address);
  }

  private window() {
    const nowMs = this.deps.clock.now().getTime();
    const startsAt = Math.floor(nowMs / 1000 / IP_WINDOW_SECONDS) * IP_WINDOW_SECONDS;
    const resetSeconds = Math.max(1, Math.ceil(startsAt + IP_WINDOW_SECONDS - nowMs / 1000));
    const decision = (allowed: boolean, remaining: number | undefined): IpRateDecision => ({
      policy: 'ip',
      limit: this.deps.limit,
      windowSeconds: IP_WINDOW_SECONDS,
      allowed,
      remaining,
      resetSeconds,
    });
    return { startsAt, decision };
  }

  private remember(key: string, startsAt: number): void {
    if (this.full.size >= MAX_REMEMBERED) {
      for (const [k, start] of this.full) if (start < startsAt) this.full.delete(k);
      if (this.full.size >= MAX_REMEMBERED) this.full.clear();
    }
    this.full.set(key, startsAt);
  }
}
