import { describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryRateCounter } from '../../../../shared/adapters/memory/rate-counter.js';
import { RateLimiter } from '../../../../shared/domain/rate-limits/rate-limiter.js';
import { rateLimitsOf } from '../../../../shared/domain/rate-limits/rate-policy.js';
import { PLANS } from '../../../../shared/domain/plans/catalog.js';

const limits = { api: 3, events: 5 };

function setup(at = '2026-03-01T10:00:00.250Z') {
  const counter = new MemoryRateCounter();
  const clock = new FixedClock(new Date(at));
  const onCounterError = vi.fn();
  return { counter, clock, onCounterError, limiter: new RateLimiter({ counter, clock, onCounterError }) };
}

describe('RateLimiter', () => {
  it('admits up to the limit in a window, counting down what is left, then refuses with nothing left', async () => {
    // Prepare
    const { limiter } = setup();

    // Act
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume(1, 'api', limits));

    // Assess
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3]).toEqual({
      policy: 'api',
      limit: 3,
      windowSeconds: 1,
      allowed: false,
      remaining: 0,
      resetSeconds: 1,
    });
  });

  it('starts afresh in the next window', async () => {
    const { limiter, clock } = setup();
    for (let i = 0; i < 4; i++) await limiter.consume(1, 'api', limits);

    clock.advance(1000);

    await expect(limiter.consume(1, 'api', limits)).resolves.toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts each client and each policy apart: one client over its limit leaves another untouched', async () => {
    const { limiter } = setup();
    for (let i = 0; i < 10; i++) await limiter.consume(1, 'api', limits);

    await expect(limiter.consume(2, 'api', limits)).resolves.toMatchObject({ allowed: true, remaining: 2 });
    await expect(limiter.consume(1, 'events', limits)).resolves.toMatchObject({
      policy: 'events',
      limit: 5,
      allowed: true,
      remaining: 4,
    });
  });

  it('stops writing to the counter for a window it has seen full (a flood costs about limit + 1 writes a window)', async () => {
    const { limiter, counter, clock } = setup();

    for (let i = 0; i < 100; i++) await limiter.consume(1, 'api', limits);

    expect(counter.writes).toBe(4);
    clock.advance(1000);
    await limiter.consume(1, 'api', limits);
    expect(counter.writes).toBe(5);
  });

  it('refuses in a second container once the shared count passes the limit (the count is not per container)', async () => {
    const { counter, clock } = setup();
    const a = new RateLimiter({ counter, clock, onCounterError: vi.fn() });
    const b = new RateLimiter({ counter, clock, onCounterError: vi.fn() });

    await a.consume(1, 'api', limits);
    await b.consume(1, 'api', limits);
    await a.consume(1, 'api', limits);

    await expect(b.consume(1, 'api', limits)).resolves.toMatchObject({ allowed: false });
  });

  it('lets the request through without a count when the counter fails, and reports the failure', async () => {
    const { limiter, counter, onCounterError } = setup();
    counter.failWith = new Error('ProvisionedThroughputExceededException');

    const decision = await limiter.consume(1, 'api', limits);

    expect(decision).toMatchObject({ allowed: true, remaining: undefined });
    expect(onCounterError).toHaveBeenCalledWith(counter.failWith);
  });

  it('says the window resets in at least one whole second, also at its very start', async () => {
    const { limiter } = setup('2026-03-01T10:00:00.000Z');
    await expect(limiter.consume(1, 'api', limits)).resolves.toMatchObject({ resetSeconds: 1 });
  });
});

describe('rateLimitsOf', () => {
  it.each(PLANS.map((plan) => [plan.tier, plan.api_requests_per_second, plan.event_requests_per_second] as const))(
    'gives a %s client its plan’s limits (%i a second, events %i)',
    (tier, api, events) => {
      expect(rateLimitsOf({ plan: tier })).toEqual({ api, events });
    },
  );

  it('gives events a higher limit than the rest of the API on every plan', () => {
    for (const plan of PLANS) expect(plan.event_requests_per_second).toBeGreaterThan(plan.api_requests_per_second);
  });

  it('takes the operator’s override for each limit it sets, the plan’s for the other', () => {
    expect(rateLimitsOf({ plan: 'growth', rate_limits: { api_requests_per_second: 7 } })).toEqual({
      api: 7,
      events: 100,
    });
    expect(rateLimitsOf({ plan: 'free', rate_limits: { event_requests_per_second: 400 } })).toEqual({
      api: 10,
      events: 400,
    });
  });

  it('falls back to the smallest plan for a tier the catalog no longer has', () => {
    expect(rateLimitsOf({ plan: 'legacy' })).toEqual({
      api: PLANS[0]!.api_requests_per_second,
      events: PLANS[0]!.event_requests_per_second,
    });
  });
});
