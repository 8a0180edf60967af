import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.js';
import { PLANS } from '../../shared/domain/plans/catalog.js';
import { MAX_REQUESTS_PER_SECOND } from '../../shared/domain/rate-limits/set-rate-limits.js';
import { synthesize, type Resource } from './support/synthesized-stack.js';

const stageOf = (resources: Record<string, Resource>): Resource =>
  Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage')!;

type Throttle = { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };

/** API Gateway's default account quota per Region, shared by every API of the account. */
const ACCOUNT_RATE = 10_000;
const ACCOUNT_BURST = 5_000;

describe("the gateway's shared limits sit above every client's", () => {
  const { resources } = synthesize();
  const stage = stageOf(resources).Properties;
  const stageThrottle = stage['DefaultRouteSettings'] as Throttle;
  const ingest = Object.values(stage['RouteSettings'] as Record<string, Throttle>);

  it('gives the stage over 10 times the sum of the plans’ API limits, and twice the highest override', () => {
    // Prepare: one client of each plan at its API limit at once.
    const apiSum = PLANS.reduce((sum, plan) => sum + plan.api_requests_per_second, 0);

    // Assess
    expect(stageThrottle).toEqual({ ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 });
    expect(stageThrottle.ThrottlingRateLimit).toBeGreaterThanOrEqual(10 * apiSum);
    expect(stageThrottle.ThrottlingRateLimit).toBeGreaterThanOrEqual(2 * MAX_REQUESTS_PER_SECOND);
  });

  it('gives each ingest route over 4 times the sum of the plans’ event limits, and twice the highest override', () => {
    const eventSum = PLANS.reduce((sum, plan) => sum + plan.event_requests_per_second, 0);

    expect(ingest).toHaveLength(routes.filter((r) => r.ingest).length);
    for (const route of ingest) {
      expect(route).toEqual({ ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 });
      expect(route.ThrottlingRateLimit).toBeGreaterThanOrEqual(4 * eventSum);
      expect(route.ThrottlingRateLimit).toBeGreaterThanOrEqual(2 * MAX_REQUESTS_PER_SECOND);
    }
  });

  it("keeps the stage and the ingest routes together within the account's quota", () => {
    const total = stageThrottle.ThrottlingRateLimit + ingest.reduce((sum, r) => sum + r.ThrottlingRateLimit, 0);
    expect(total).toBeLessThanOrEqual(ACCOUNT_RATE);
    for (const t of [stageThrottle, ...ingest]) expect(t.ThrottlingBurstLimit).toBeLessThanOrEqual(ACCOUNT_BURST);
  });
});

describe('the access log', () => {
  it('writes the route key and never the path, so the public links’ tokens stay out of CloudWatch', () => {
    // Act
    const { resources } = synthesize();

    // Assess
    const format = (stageOf(resources).Properties['AccessLogSettings'] as { Format: string }).Format;
    const fields = JSON.parse(format) as Record<string, string>;
    expect(fields['routeKey']).toBe('$context.routeKey');
    expect(format).not.toMatch(/\$context\.(path|resourcePath)\b/);
    expect(Object.values(fields).filter((v) => /path/i.test(v))).toEqual([]);
    expect(fields).not.toHaveProperty('path');
  });
});

describe('the Lambda logs', () => {
  it('never log the request event (its path holds a public link’s token): no function turns Powertools’ event logging on', () => {
    const { resources } = synthesize();
    const functions = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      const variables =
        (fn.Properties['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      expect(variables['POWERTOOLS_LOGGER_LOG_EVENT']).toBeUndefined();
    }
  });
});
