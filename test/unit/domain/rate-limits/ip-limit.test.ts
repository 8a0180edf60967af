import { describe, expect, it } from 'vitest';
import { MemoryIpRateCounter } from '../../../../shared/adapters/memory/ip-rate-counter.js';
import { loadConfig } from '../../../../shared/config.js';
import { IpRateLimiter, ipLimitKey, networkList } from '../../../../shared/domain/rate-limits/ip-limit.js';

const clockAt = (iso: string) => {
  const state = { now: new Date(iso) };
  return { clock: { now: () => state.now }, state };
};

function limiter(limit = 3, exempt: string[] = []) {
  const counter = new MemoryIpRateCounter();
  const { clock, state } = clockAt('2026-11-28T10:00:10.000Z');
  const errors: unknown[] = [];
  return {
    counter,
    state,
    errors,
    limiter: new IpRateLimiter({ counter, clock, limit, exempt, onCounterError: (e) => errors.push(e) }),
  };
}

describe('IpRateLimiter', () => {
  it('admits `limit` requests of one address a minute and refuses the next with the seconds to the window’s end', async () => {
    // Prepare
    const { limiter: ip } = limiter(3);

    // Act
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await ip.consume('198.51.100.7'));

    // Assess
    expect(decisions.map((d) => d?.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d?.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]).toEqual({
      policy: 'ip',
      limit: 3,
      windowSeconds: 60,
      allowed: false,
      remaining: 0,
      resetSeconds: 50,
    });
  });

  it('leaves another address alone', async () => {
    const { limiter: ip } = limiter(2);
    for (let i = 0; i < 5; i++) await ip.consume('198.51.100.7');

    expect(await ip.consume('198.51.100.8')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('stops writing once it saw the window full, and counts again in the next window', async () => {
    const { limiter: ip, counter, state } = limiter(2);
    for (let i = 0; i < 10; i++) await ip.consume('198.51.100.7');
    expect(counter.writes).toBe(3);

    state.now = new Date('2026-11-28T10:01:00.000Z');

    expect(await ip.consume('198.51.100.7')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('counts an IPv6 address by its /64, and an IPv4-mapped one as its IPv4 address', async () => {
    const { limiter: ip } = limiter(2);
    await ip.consume('2001:db8:1:2::1');
    await ip.consume('2001:db8:1:2:ffff::9');

    expect(await ip.consume('2001:db8:1:2:abcd::3')).toMatchObject({ allowed: false });
    expect(await ip.consume('2001:db8:1:3::1')).toMatchObject({ allowed: true });
    expect(ipLimitKey('::ffff:198.51.100.7')).toBe(ipLimitKey('198.51.100.7'));
  });

  it('keeps no address: the counter sees a SHA-256 digest', async () => {
    const { limiter: ip, counter } = limiter();
    await ip.consume('198.51.100.7');
    const [key] = [...counter.counts.keys()];
    expect(key).toMatch(/^[0-9a-f]{64}:\d+$/);
    expect(key).not.toContain('198.51');
  });

  it.each([
    ['127.0.0.1', ['127.0.0.1/32']],
    ['10.1.2.3', ['10.0.0.0/8']],
    ['::1', ['::1/128']],
    ['::ffff:10.1.2.3', ['10.0.0.0/8']],
  ])('never counts %s in an exempt network', async (address, exempt) => {
    const { limiter: ip, counter } = limiter(1, exempt);
    for (let i = 0; i < 3; i++) expect(await ip.consume(address)).toBeUndefined();
    expect(counter.writes).toBe(0);
  });

  it.each([[undefined], [''], ['unknown'], ['not-an-ip']])(
    'does not limit a request without an address (%s)',
    async (address) => {
      const { limiter: ip, counter } = limiter(1);
      expect(await ip.consume(address)).toBeUndefined();
      expect(counter.writes).toBe(0);
    },
  );

  it('lets the request through and reports it when the counter fails', async () => {
    const { limiter: ip, counter, errors } = limiter(1);
    counter.failWith = new Error('throttled');

    expect(await ip.consume('198.51.100.7')).toMatchObject({ allowed: true, remaining: undefined });
    expect(errors).toHaveLength(1);
  });
});

describe('ipLimitKey', () => {
  it.each([
    ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:0000:0000:0009'],
    ['2001:db8::', '2001:db8:0:0:1::'],
    ['fe80::1%eth0', 'fe80::2'],
  ])('counts %s and %s as one /64', (a, b) => {
    expect(ipLimitKey(a)).toBe(ipLimitKey(b));
  });

  it.each([
    ['2001:db8:1:2::1', '2001:db8:1:3::1'],
    ['198.51.100.7', '198.51.100.8'],
    ['::ffff:198.51.100.7', '::ffff:198.51.100.8'],
  ])('counts %s and %s apart', (a, b) => {
    expect(ipLimitKey(a)).not.toBe(ipLimitKey(b));
  });

  it('counts an IPv4-mapped address in hex form as its IPv4 address', () => {
    expect(ipLimitKey('::ffff:c633:6407')).toBe(ipLimitKey('198.51.100.7'));
  });
});

describe('networkList', () => {
  it.each([['10.0.0.0/8'], ['::1/128'], ['127.0.0.1/32'], ['2001:db8::/32']])('takes %s', (cidr) => {
    expect(() => networkList([cidr])).not.toThrow();
  });

  it.each([['10.0.0.0'], ['10.0.0.0/33'], ['::1/129'], ['localhost/8'], ['10.0.0.0/8/1'], ['10.0.0.0/x']])(
    'refuses %s',
    (cidr) => {
      expect(() => networkList([cidr])).toThrow(RangeError);
    },
  );

  it('refuses a bad network in IP_RATE_LIMIT_EXEMPT at cold start', () => {
    expect(() => loadConfig({ IP_RATE_LIMIT_EXEMPT: '10.0.0.0/8, nonsense' })).toThrow(/IP_RATE_LIMIT_EXEMPT|CIDR/);
    expect(loadConfig({ IP_RATE_LIMIT_EXEMPT: '10.0.0.0/8, ::1/128' }).IP_RATE_LIMIT_EXEMPT).toEqual([
      '10.0.0.0/8',
      '::1/128',
    ]);
  });
});
