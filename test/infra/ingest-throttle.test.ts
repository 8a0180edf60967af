import { describe, expect, it } from 'vitest';
import { routeKey, routes } from '../../functions/routes.js';
import { synthesize, type Resource } from './support/synthesized-stack.js';

const stageOf = (resources: Record<string, Resource>): Resource =>
  Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage')!;

describe('API Gateway throttles of the ingest routes', () => {
  it('gives each ingest route of the route table its own throttle (2 000/s, burst 4 000), the stage keeping its default', () => {
    // Act
    const { resources } = synthesize();

    // Assess
    const stage = stageOf(resources).Properties;
    expect(stage['DefaultRouteSettings']).toEqual({ ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 });
    expect(stage['RouteSettings']).toEqual({
      'POST /api/v1/client/events': { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 },
      'POST /api/v1/client/contacts/bulk': { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 },
      'POST /api/v1/client/contacts/bulk/csv': { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 },
    });
    // Every key names a route the stack builds, so API Gateway applies it (an unknown route key fails the deploy).
    const built = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties['RouteKey']);
    for (const key of Object.keys(stage['RouteSettings'] as object)) expect(built).toContain(key);
    // …and CloudFormation creates those routes before the stage that names them.
    const dependsOn = (stageOf(resources) as Resource & { DependsOn?: string[] }).DependsOn ?? [];
    const ingestRouteIds = Object.entries(resources)
      .filter(
        ([, r]) =>
          r.Type === 'AWS::ApiGatewayV2::Route' &&
          Object.keys(stage['RouteSettings'] as object).includes(r.Properties['RouteKey'] as string),
      )
      .map(([id]) => id);
    expect(ingestRouteIds).toHaveLength(3);
    expect(dependsOn).toEqual(expect.arrayContaining(ingestRouteIds));
    expect(Object.keys(stage['RouteSettings'] as object).sort()).toEqual(
      routes
        .filter((r) => r.ingest)
        .map(routeKey)
        .sort(),
    );
  });

  it('takes the ingest throttle from context', () => {
    const { resources } = synthesize({ ingestThrottleRateLimit: '400', ingestThrottleBurstLimit: '800' });

    const settings = Object.values(stageOf(resources).Properties['RouteSettings'] as Record<string, unknown>);
    expect(settings).toEqual(Array(3).fill({ ThrottlingRateLimit: 400, ThrottlingBurstLimit: 800 }));
  });

  it('fails the synth on an ingest throttle that is not a positive integer', () => {
    expect(() => synthesize({ ingestThrottleRateLimit: '0' })).toThrow(/ingestThrottleRateLimit/);
  });
});
