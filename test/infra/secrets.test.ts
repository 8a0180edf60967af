import { readFileSync } from 'node:fs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { queueFunctions } from '../../functions/queues.js';
import { authenticates, routeKey, routes, type RouteDefinition } from '../../functions/routes.js';
import { scheduledFunctions } from '../../functions/scheduled.js';
import type { ResourceNeeds } from '../../infra/shared-resources.js';
import { routesOnAws } from '../../infra/route-function.js';
import {
  asList,
  logicalIdOf,
  statementsOfRole,
  synthesize,
  type Resource,
  type Statement,
} from './support/synthesized-stack.js';

/**
 * Secrets are read at run time from Secrets Manager. Over the whole template: no secret value and no
 * deploy-time `{{resolve:secretsmanager…}}` reference anywhere, no secret-valued variable in any function, and each
 * secret's ARN and read permission in exactly the functions that need it.
 */
const JWT_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:els/jwt-hs256-AbC123';

const { app, template, resources } = synthesize({ jwtHs256SecretArn: JWT_SECRET_ARN });

interface Entry {
  description: string;
  needs: ResourceNeeds;
  route?: RouteDefinition;
}

/** Every function of the three tables built on AWS, found by the description infra gives it. */
const ENTRIES: Entry[] = [
  ...routesOnAws(routes).map((route) => ({ description: routeKey(route), needs: route, route })),
  ...queueFunctions.map((q) => ({ description: `${q.queue} queue -> ${q.handler}`, needs: q })),
  ...scheduledFunctions.map((s) => ({ description: `every ${s.everyMinutes} min -> ${s.handler}`, needs: s })),
];

const functions = (all: Record<string, Resource>) =>
  Object.values(all).filter((r) => r.Type === 'AWS::Lambda::Function');
const environmentOf = (fn: Resource): Record<string, unknown> =>
  (fn.Properties['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};

function functionOf(description: string) {
  const fn = functions(resources).find((r) => r.Properties['Description'] === description)!;
  expect(fn).toBeDefined();
  const statements = statementsOfRole(resources, logicalIdOf(fn.Properties['Role']));
  return { env: environmentOf(fn), secretGrants: grantsOf(statements.filter(readsASecret)) };
}

const readsASecret = (s: Statement): boolean => asList(s.Action).some((a) => a.startsWith('secretsmanager:'));

/** `Allow <action> <resource>` for each pair a statement allows, sorted: CDK may merge or order statements its own way. */
const grantsOf = (statements: Statement[]): string[] =>
  statements
    .flatMap((s) =>
      asList(s.Action).flatMap((a) => asList(s.Resource).map((r) => `${s.Effect} ${a} ${JSON.stringify(r)}`)),
    )
    .sort();
const linkSecretId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::SecretsManager::Secret')![0];
const READ = ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'];

describe('secrets in the synthesised template', () => {
  it('holds no deploy-time secret reference anywhere (the value would be readable in the function configuration)', () => {
    expect(JSON.stringify(template.toJSON())).not.toMatch(/resolve:secretsmanager/);
  });

  it('gives no function a secret-valued variable: neither LINK_SECRET nor JWT_HS256_SECRET, only ARNs', () => {
    for (const fn of functions(resources)) {
      const env = environmentOf(fn);
      expect(env).not.toHaveProperty('LINK_SECRET');
      expect(env).not.toHaveProperty('JWT_HS256_SECRET');
      // A variable that names the link secret holds its ARN (a Ref), never its value (an Fn::Join around it).
      for (const [name, value] of Object.entries(env)) {
        if (JSON.stringify(value).includes(linkSecretId))
          expect([name, value]).toEqual(['LINK_SECRET_ARN', { Ref: linkSecretId }]);
      }
    }
  });

  it.each(ENTRIES.map((e) => [e.description, e] as const))(
    '%s: reads exactly the secrets it needs, each alone',
    (_name, entry) => {
      // Prepare
      const { env, secretGrants } = functionOf(entry.description);
      const needsLink = Boolean(entry.needs.sendsEmail || entry.needs.usesLinkSecret);
      const needsJwt = entry.route !== undefined && authenticates(entry.route);

      // Assess: the ARN variable and a read of that secret alone, per secret it needs
      expect(env['LINK_SECRET_ARN']).toEqual(needsLink ? { Ref: linkSecretId } : undefined);
      expect(env['JWT_HS256_SECRET_ARN']).toEqual(needsJwt ? JWT_SECRET_ARN : undefined);
      expect(secretGrants).toEqual(
        grantsOf([
          ...(needsLink ? [{ Effect: 'Allow', Action: READ, Resource: { Ref: linkSecretId } }] : []),
          ...(needsJwt ? [{ Effect: 'Allow', Action: READ, Resource: JWT_SECRET_ARN }] : []),
        ]),
      );
    },
  );

  it('gives the JWT secret to every route that authenticates and to nothing else', () => {
    const holders = functions(resources).filter((fn) => environmentOf(fn)['JWT_HS256_SECRET_ARN'] !== undefined);
    expect(holders.map((fn) => fn.Properties['Description']).sort()).toEqual(
      routesOnAws(routes).filter(authenticates).map(routeKey).sort(),
    );
    expect(holders.length).toBeGreaterThan(20);
  });

  it('gives no function a JWT secret without the context key', () => {
    const { resources: plain } = synthesize();
    for (const fn of functions(plain)) expect(environmentOf(fn)).not.toHaveProperty('JWT_HS256_SECRET_ARN');
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged with the JWT secret imported', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });
});

describe('the link secret and the code that reads it', () => {
  // A handler that composes the link-secret provider without the grant works locally and fails on AWS only.
  const folderOf = (e: Entry) => (e.route ? 'http' : e.description.includes(' queue -> ') ? 'queue' : 'scheduled');
  const handlerOf = (e: Entry) => e.route?.handler ?? e.description.split(' -> ')[1]!;
  it.each(ENTRIES.map((e) => [e.description, e] as const))(
    '%s: is granted the link secret if its handler composes it',
    (_name, entry) => {
      const source = readFileSync(
        new URL(`../../functions/${folderOf(entry)}/${handlerOf(entry)}.ts`, import.meta.url),
        'utf8',
      );
      if (source.includes('providers/link-secret.js'))
        expect(Boolean(entry.needs.sendsEmail || entry.needs.usesLinkSecret)).toBe(true);
    },
  );
});

describe('the JWT secret context', () => {
  it('refuses the old jwtHs256Secret value, telling the operator to store it in Secrets Manager and pass its ARN', () => {
    expect(() => synthesize({ jwtHs256Secret: 'a-shared-secret-that-is-at-least-32-chars' })).toThrow(
      /"jwtHs256Secret" is no longer read.*Secrets Manager.*jwtHs256SecretArn=/,
    );
  });

  it.each([
    ['a secret name', 'els/jwt-hs256'],
    [
      'a partial ARN (no 6-character suffix: a policy would need a wildcard)',
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:els/jwt-hs256',
    ],
    ['another service', 'arn:aws:ssm:eu-west-1:123456789012:parameter/els-jwt-AbC123'],
  ])('refuses %s as jwtHs256SecretArn', (_name, value) => {
    expect(() => synthesize({ jwtHs256SecretArn: value })).toThrow(
      /"jwtHs256SecretArn" must be a Secrets Manager secret's complete ARN/,
    );
  });
});
