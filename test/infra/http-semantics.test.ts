import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { fullPath, routes } from '../../functions/routes.js';
import { routesOnAws } from '../../infra/route-function.js';
import { fallbackRoutes } from '../../shared/http/route-overlaps.js';
import { logicalIdOf, statementsOfRole, synthesize, type Resource } from './support/synthesized-stack.js';

/** 405 + Allow through the `$default` route, a HEAD route per GET route, CORS from one setting. */
const { template, resources } = synthesize();
const apiRoutes = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
const routeKeys = apiRoutes.map((r) => r.Properties['RouteKey']);

/** Route → integration → function. */
function functionOfRouteKey(key: string): { id: string; fn: Resource } {
  const route = apiRoutes.find((r) => r.Properties['RouteKey'] === key)!;
  const target = route.Properties['Target'] as { 'Fn::Join': [string, [string, unknown]] };
  const integration = resources[logicalIdOf(target['Fn::Join'][1][1])]!;
  const id = logicalIdOf(integration.Properties['IntegrationUri']);
  return { id, fn: resources[id]! };
}

describe('HTTP semantics on AWS', () => {
  it('routes $default to a function that may only write its logs', () => {
    expect(routeKeys).toContain('$default');
    const { fn } = functionOfRouteKey('$default');
    expect(fn.Properties['Description']).toMatch(/^\$default: 405/);
    const actions = statementsOfRole(resources, logicalIdOf(fn.Properties['Role'])).flatMap((s) =>
      Array.isArray(s.Action) ? s.Action : [s.Action],
    );
    expect(actions.every((action) => action.startsWith('logs:'))).toBe(true);
    expect(Object.keys((fn.Properties['Environment'] as { Variables: object }).Variables)).not.toContain('TABLE_NAME');
  });

  // Literal paths first: API Gateway would send GET /client/contacts/bulk to GET /client/contacts/{id}.
  it.each(fallbackRoutes(routesOnAws(routes)).map((g) => [`${g.method} /api/v1${g.path}`] as const))(
    'routes %s, a method the literal path lacks, to the fallback (405), not to the {param} route',
    (key) => {
      expect(routeKeys).toContain(key);
      expect(functionOfRouteKey(key).id).toBe(functionOfRouteKey('$default').id);
    },
  );

  it("gives every literal path beside a {param} path a route for each of the {param} path's methods", () => {
    expect(fallbackRoutes(routesOnAws(routes)).map((g) => `${g.method} ${g.path}`)).toEqual([
      'PATCH /client/api-keys/rotate',
      'DELETE /client/api-keys/rotate',
      'GET /client/contacts/bulk',
      'HEAD /client/contacts/bulk',
      'PATCH /client/contacts/bulk',
      'DELETE /client/contacts/bulk',
      'GET /client/email-templates/list',
      'HEAD /client/email-templates/list',
      'PATCH /client/email-templates/list',
      'DELETE /client/email-templates/list',
      'PATCH /client/topics/preference-page-preview',
      'DELETE /client/topics/preference-page-preview',
      'GET /client/segments/preview',
      'HEAD /client/segments/preview',
      'PATCH /client/segments/preview',
      'DELETE /client/segments/preview',
    ]);
  });

  it.each(
    routesOnAws(routes)
      .filter((r) => r.method === 'GET')
      .map((r) => [fullPath(r)] as const),
  )('has a HEAD route beside GET %s, served by the same function', (path) => {
    expect(routeKeys).toContain(`HEAD ${path}`);
    expect(functionOfRouteKey(`HEAD ${path}`).id).toBe(functionOfRouteKey(`GET ${path}`).id);
  });

  it('adds no HEAD route to other methods and no CORS by default', () => {
    const heads = routeKeys.filter((k) => String(k).startsWith('HEAD '));
    const gapHeads = fallbackRoutes(routesOnAws(routes)).filter((g) => g.method === 'HEAD');
    expect(heads).toHaveLength(routesOnAws(routes).filter((r) => r.method === 'GET').length + gapHeads.length);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.absent() });
  });

  it('configures API Gateway preflights from context corsOrigins with the shared policy (nag-clean)', () => {
    const withCors = synthesize({ corsOrigins: 'https://app.example.com,http://localhost:5173' });
    withCors.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://app.example.com', 'http://localhost:5173'],
        AllowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        AllowHeaders: ['authorization', 'content-type'],
        ExposeHeaders: ['ratelimit', 'ratelimit-policy', 'retry-after', 'x-request-id'],
        MaxAge: 600,
      },
    });
  });

  it('refuses a malformed origin at synth time', () => {
    expect(() => synthesize({ corsOrigins: 'https://app.example.com/' })).toThrow(
      'Context "corsOrigins": "https://app.example.com/" must be written as the origin "https://app.example.com" (no path, no trailing slash)',
    );
  });
});
