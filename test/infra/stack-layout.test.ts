import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routeKey, routes, type RouteDefinition } from '../../functions/routes.js';
import { routesOnAws } from '../../infra/route-function.js';
import { pathFamilyOf, ROUTE_AREAS, routeGroupOf } from '../../infra/route-groups.js';
import { roleIdOf, routeNeedsOf, RouteRoles } from '../../infra/route-roles.js';
import { fallbackRoutes } from '../../shared/http/route-overlaps.js';
import { synthesize } from './support/synthesized-stack.js';

const { stacks } = synthesize();
const rootTemplate = stacks[0]!.template.toJSON() as {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
};
const byPath = new Map(stacks.map(({ path, template }) => [path, template.toJSON() as typeof rootTemplate]));

/**
 * What holds data, secrets or subscriptions, under the logical ids the one-stack deployment gave it: a deploy over that
 * stack updates these in place. A new id would make CloudFormation create an empty one and retain or delete the old.
 */
const STATEFUL_IN_ROOT: Record<string, string> = {
  TableCD117FA1: 'AWS::DynamoDB::GlobalTable',
  EngineEventsQueue0B8EF21E: 'AWS::SQS::Queue',
  EngineEventsQueueDeadLettersQueue87AED4AA: 'AWS::SQS::Queue',
  EngineWorkflowQueue9E5F0650: 'AWS::SQS::Queue',
  EngineWorkflowQueueDeadLettersQueue52DB185B: 'AWS::SQS::Queue',
  // The journey queue holds runs waiting out a delay of up to 15 minutes: kept under the id it was first built with.
  EngineJourneyQueueDD66D956: 'AWS::SQS::Queue',
  EngineJourneyQueueDeadLettersQueue53C375AB: 'AWS::SQS::Queue',
  EngineSesStatusQueue1B840FA1: 'AWS::SQS::Queue',
  EngineSesStatusQueueDeadLettersQueue122978E3: 'AWS::SQS::Queue',
  EngineSystemMailQueue124BFFF5: 'AWS::SQS::Queue',
  EngineSystemMailQueueDeadLettersQueue5628BE8F: 'AWS::SQS::Queue',
  EngineWebhooksQueue924C18E5: 'AWS::SQS::Queue',
  EngineWebhooksQueueDeadLettersQueueBDC7FEEA: 'AWS::SQS::Queue',
  EngineWebhooksFailingQueue80FBE8C4: 'AWS::SQS::Queue',
  EngineWebhooksFailingQueueDeadLettersQueue7FE2935D: 'AWS::SQS::Queue',
  EngineSchedulesGroup34076F7B: 'AWS::Scheduler::ScheduleGroup',
  EngineSchedulesDeadLettersQueue04922FEA: 'AWS::SQS::Queue',
  EngineLinkSecretBECD9641: 'AWS::SecretsManager::Secret',
  EngineMailConfigurationSet9306D0AF: 'AWS::SES::ConfigurationSet',
  EngineMailSystemConfigurationSet2DB842EE: 'AWS::SES::ConfigurationSet',
  EngineMailEventsKey30872FAD: 'AWS::KMS::Key',
  EngineMailEventsTopic7DDFA9FE: 'AWS::SNS::Topic',
  OnCallTopic2FB15ED5: 'AWS::SNS::Topic',
  HttpApiAccessLogs4B419BF6: 'AWS::Logs::LogGroup',
};

/** The nested stack holding a route's function, found by the function's description (its route key). */
function stackHoldingRoute(route: RouteDefinition): string[] {
  const description = routeKey(route);
  return [...byPath]
    .filter(([, template]) =>
      Object.values(template.Resources).some(
        (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === description,
      ),
    )
    .map(([path]) => path);
}

describe('the stacks', () => {
  it('keeps the table, the queues, the schedules, the link secret, mail and the on-call topic in the root under their first logical ids', () => {
    for (const [id, type] of Object.entries(STATEFUL_IN_ROOT))
      expect([id, rootTemplate.Resources[id]?.Type]).toEqual([id, type]);
  });

  it('keeps every function out of the root but the $default one: routes, engine and operations are nested stacks', () => {
    const rootFunctions = Object.values(rootTemplate.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
    expect(rootFunctions.map((r) => r.Properties.Description)).toEqual([expect.stringMatching(/^\$default/)]);
    expect(stacks.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['EmailLifecycle/EngineFunctions', 'EmailLifecycle/Operations']),
    );
    expect(Object.values(byPath.get('EmailLifecycle/Operations')!.Resources).map((r) => r.Type)).toContain(
      'AWS::CloudWatch::Dashboard',
    );
  });

  it.each(routesOnAws(routes).map((route) => [`${route.method} ${route.path}`, route] as const))(
    'builds %s in the stack of its area',
    (_key, route) => {
      expect(stackHoldingRoute(route)).toEqual([`EmailLifecycle/${routeGroupOf(route)}`]);
    },
  );

  it('derives the area from the path: listed families join their area, any other family gets a stack of its own', () => {
    const route = (path: string): RouteDefinition => ({ method: 'GET', path, handler: 'probe', tableAccess: 'read' });
    expect(routeGroupOf(route('/client/contacts/{id}/activity'))).toBe('ContactsRoutes');
    expect(routeGroupOf(route('/client/topics'))).toBe('ContactsRoutes');
    expect(routeGroupOf(route('/u/{token}'))).toBe('PublicRoutes');
    expect(routeGroupOf(route('/client/journeys/{id}/publish'))).toBe('JourneysRoutes');
    expect(routeGroupOf(route('/client/sender-domains/{id}'))).toBe('SenderDomainsRoutes');
    expect(pathFamilyOf(route('/client/sender-domains/{id}'))).toBe('sender-domains');
    // No family in two areas: a route's stack is never ambiguous.
    const families = Object.values(ROUTE_AREAS).flat();
    expect(new Set(families).size).toBe(families.length);
  });
});

describe('moving a one-stack deployment (context detachRoutes)', () => {
  it('builds every function but no route of the route table, and a stage that names none', () => {
    const { template, resources } = synthesize({ detachRoutes: 'true' });
    const awsRoutes = routesOnAws(routes);
    // The $default route and the literal paths' missing methods: the root's, under the ids they always had.
    template.resourceCountIs('AWS::ApiGatewayV2::Route', 1 + fallbackRoutes(awsRoutes).length);
    const functions = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function');
    const full = Object.values(synthesize().resources).filter((r) => r.Type === 'AWS::Lambda::Function');
    expect(functions).toHaveLength(full.length);
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as {
      Properties: Record<string, unknown>;
    }[];
    expect(stage!.Properties.RouteSettings ?? {}).toEqual({});
  });
});

describe('route roles', () => {
  const route = (handler: string, more: Partial<RouteDefinition> = {}): RouteDefinition => ({
    method: 'POST',
    path: `/client/${handler}`,
    handler,
    tableAccess: 'readWrite',
    ...more,
  });

  it('are named by their needs', () => {
    expect(roleIdOf(routeNeedsOf(route('a', { tableAccess: 'read', sendsTo: ['webhooks'] }), false))).toBe(
      'RoleTableReadQueueWebhooks',
    );
    expect(roleIdOf(routeNeedsOf(route('a', { sendsEmail: true }), true))).toBe('RoleTableReadWriteEmailJwtSecret');
    // Too long to read: the table access and a hash of the needs, the same on every synth.
    const many = routeNeedsOf(
      route('a', {
        sendsTo: ['events', 'workflow', 'webhooks', 'webhooks-failing'],
        schedules: true,
        usesLinkSecret: true,
      }),
      true,
    );
    expect(roleIdOf(many)).toMatch(/^RoleTableReadWriteNeeds[0-9a-f]{10}$/);
    expect(roleIdOf(many)).toBe(roleIdOf({ ...many }));
  });

  it('keep their logical ids when a route with new needs is inserted before the others', () => {
    const logicalIds = (table: RouteDefinition[]) => {
      const stack = new Stack(new App(), 'Roles');
      const roles = new RouteRoles(stack, 'RouteRoles', { jwtSecret: false });
      const ids = table.map(
        (entry) => stack.resolve((roles.roleFor(entry).node.defaultChild as CfnElement).logicalId) as string,
      );
      // The ids the template holds, not only the ones the constructs would get.
      const inTemplate = Object.keys(Template.fromStack(stack).findResources('AWS::IAM::Role'));
      expect(inTemplate.sort()).toEqual([...new Set(ids)].sort());
      return Object.fromEntries(table.map((entry, i) => [entry.handler, ids[i]]));
    };
    const before = logicalIds([
      route('plain'),
      route('reader', { tableAccess: 'read' }),
      route('mailer', { sendsEmail: true }),
    ]);
    const after = logicalIds([
      route('scheduler', { schedules: true }),
      route('plain'),
      route('reader', { tableAccess: 'read' }),
      route('mailer', { sendsEmail: true }),
    ]);
    expect(after).toMatchObject(before);
    expect(new Set(Object.values(after)).size).toBe(4);
  });
});
