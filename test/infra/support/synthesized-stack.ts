import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { composeApp } from '../../../infra/compose-app.js';

export type Resource = { Type: string; Properties: Record<string, unknown> };
export type Statement = {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

// The same feature flags and defaults as `cdk synth`; bundling skipped so no esbuild run is needed.
const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(new URL('../../../cdk.json', import.meta.url), 'utf8')) as {
  context: Record<string, unknown>;
}).context;

/** An app as `cdk synth` builds it (cdk.json context), with bundling skipped and validation errors thrown. */
export function appWith(context: Record<string, unknown> = {}): App {
  return new App({
    context: { ...CDK_JSON_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:appMode': 'inmemory' },
  });
}

/** The real stack (infra/compose-app.ts), its template and its resources by logical id. */
export function synthesize(context: Record<string, unknown> = {}) {
  const app = appWith(context);
  const template = Template.fromStack(composeApp(app));
  return { app, template, resources: template.toJSON().Resources as Record<string, Resource> };
}

/** The logical id a `Ref` or `Fn::GetAtt` points at. */
export function logicalIdOf(reference: unknown): string {
  const ref = reference as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = ref.Ref ?? ref['Fn::GetAtt']?.[0];
  if (!id) throw new Error(`not a reference: ${JSON.stringify(reference)}`);
  return id;
}

export const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Every statement of the policies attached to a role. */
export function statementsOfRole(resources: Record<string, Resource>, roleId: string): Statement[] {
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => (r.Properties.Roles as unknown[]).some((role) => logicalIdOf(role) === roleId))
    .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

/** The statements of a role that allow `action`. */
export const allowing = (statements: Statement[], action: string): Statement[] =>
  statements.filter((s) => s.Effect === 'Allow' && asList(s.Action).includes(action));
