import { readFileSync } from 'node:fs';
import { App, NestedStack, type Stack, type CfnResource } from 'aws-cdk-lib';
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
const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(new URL('../../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;

/**
 * The service's two senders, as an operator gives them (docs/deploy.md): the synth fails without the system one.
 * A test drops one with `''` (an absent context value).
 */
export const SENDER_CONTEXT = {
  systemFromEmail: 'accounts@mail.example.org',
  onboardingFromAddress: 'onboarding@onboarding.example.net',
} as const;

/**
 * An app as `cdk synth` builds it (cdk.json context and SENDER_CONTEXT), with bundling skipped and validation errors
 * thrown.
 */
export function appWith(context: Record<string, unknown> = {}): App {
  return new App({
    context: {
      ...CDK_JSON_CONTEXT,
      ...SENDER_CONTEXT,
      ...context,
      'aws:cdk:bundling-stacks': [],
      '@aws-cdk/core:appMode': 'inmemory',
    },
  });
}

/**
 * The real app (infra/compose-app.ts) as one template: the root stack's resources and outputs with every nested
 * stack's resources beside them (infra/ splits the app into nested stacks; what the tests assert is the app, wherever
 * a resource lands), and its resources by logical id. `stacks` has each stack's own template.
 */
export function synthesize(context: Record<string, unknown> = {}) {
  const app = appWith(context);
  const root = composeApp(app);
  const template = Template.fromJSON(flattenStack(root) as unknown as Record<string, unknown>);
  return {
    app,
    root,
    template,
    resources: template.toJSON().Resources as Record<string, Resource>,
    stacks: stacksOf(root),
  };
}

/** The root stack and every stack nested in it, by construct path, each with its own template. */
export function stacksOf(root: Stack): { path: string; stack: Stack; template: Template }[] {
  return [root, ...root.node.findAll().filter((node): node is NestedStack => NestedStack.isNestedStack(node))].map(
    (stack) => ({
      path: stack.node.path,
      stack,
      template: Template.fromStack(stack),
    }),
  );
}

interface CfnTemplate {
  Resources: Record<string, Resource & { DependsOn?: string | string[] }>;
  Outputs?: Record<string, { Value: unknown } & Record<string, unknown>>;
  Parameters?: Record<string, unknown>;
}

/**
 * A stack's template with the resources of its nested stacks merged in, as CloudFormation wires them: a nested
 * stack's resource ids take its construct id as prefix (two stacks may hold the same id), a reference to one of its
 * parameters becomes the value the parent passes, and the parent's `Outputs.<name>` of the nested stack becomes the
 * output's value; a `DependsOn` naming a nested stack names its resources. The nested stack resources themselves stay.
 */
function flattenStack(stack: Stack): CfnTemplate {
  const own = structuredClone(Template.fromStack(stack).toJSON()) as CfnTemplate;
  const nestedStacks = stack.node
    .findAll()
    .filter((node): node is NestedStack => NestedStack.isNestedStack(node) && node.nestedStackParent === stack);
  const outputsOf = new Map<string, Record<string, unknown>>();
  const merged: CfnTemplate['Resources'] = {};
  const flattenedNested = nestedStacks.map((nested) => {
    const resourceId = stack.resolve((nested.nestedStackResource as CfnResource).logicalId) as string;
    const flat = flattenStack(nested);
    const prefix = nested.node.id;
    const ids = new Set(Object.keys(flat.Resources));
    const renamed = rewrite(flat, (node) => {
      const ref = referenceIn(node);
      if (ref && ids.has(ref.id)) return ref.rebuild(`${prefix}${ref.id}`);
      return undefined;
    }) as CfnTemplate;
    renamed.Resources = Object.fromEntries(
      Object.entries(renamed.Resources).map(([id, resource]) => [`${prefix}${id}`, resource]),
    );
    for (const resource of Object.values(renamed.Resources)) {
      if (resource.DependsOn)
        resource.DependsOn = asList(resource.DependsOn).map((id) => (ids.has(id) ? `${prefix}${id}` : id));
    }
    outputsOf.set(
      resourceId,
      Object.fromEntries(Object.entries(renamed.Outputs ?? {}).map(([name, output]) => [name, output.Value])),
    );
    return { resourceId, prefix, renamed };
  });
  // The parent's references to its nested stacks' outputs (its own resources, outputs and the parameters it passes).
  const resolveOutputs = (value: unknown): unknown =>
    rewrite(value, (node) => {
      const getAtt = (node as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
      if (!getAtt || !outputsOf.has(getAtt[0]) || !getAtt[1].startsWith('Outputs.')) return undefined;
      const output = outputsOf.get(getAtt[0])![getAtt[1].slice('Outputs.'.length)];
      if (output === undefined) throw new Error(`no output ${getAtt[1]} in ${getAtt[0]}`);
      return resolveOutputs(output);
    });
  const parent = resolveOutputs(own) as CfnTemplate;
  // Depending on a nested stack is depending on every resource in it.
  const contents = new Map(
    flattenedNested.map(({ resourceId, renamed }) => [resourceId, Object.keys(renamed.Resources)]),
  );
  for (const resource of Object.values(parent.Resources)) {
    if (resource.DependsOn) resource.DependsOn = asList(resource.DependsOn).flatMap((id) => contents.get(id) ?? [id]);
  }
  Object.assign(merged, parent.Resources);
  for (const { resourceId, prefix, renamed } of flattenedNested) {
    const passed = (parent.Resources[resourceId]!.Properties.Parameters ?? {}) as Record<string, unknown>;
    const withParameters = rewrite(renamed.Resources, (node) => {
      const ref = (node as { Ref?: unknown }).Ref;
      if (typeof ref !== 'string' || !(ref in (renamed.Parameters ?? {}))) return undefined;
      if (!(ref in passed)) throw new Error(`${resourceId} passes no value for its parameter ${ref}`);
      return passed[ref];
    }) as CfnTemplate['Resources'];
    for (const [id, resource] of Object.entries(withParameters)) {
      if (id in merged) throw new Error(`two resources named ${id} (nested stack ${prefix})`);
      merged[id] = resource;
    }
  }
  return { ...parent, Resources: merged };
}

/** A `Ref` or `Fn::GetAtt` of a resource: its id, and the same reference to another id. */
function referenceIn(node: object): { id: string; rebuild: (id: string) => unknown } | undefined {
  const { Ref: ref, 'Fn::GetAtt': getAtt } = node as { Ref?: unknown; 'Fn::GetAtt'?: [unknown, unknown] };
  if (typeof ref === 'string') return { id: ref, rebuild: (id) => ({ Ref: id }) };
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string')
    return { id: getAtt[0], rebuild: (id) => ({ 'Fn::GetAtt': [id, getAtt[1]] }) };
  return undefined;
}

/** `value` with every object `replace` answers for replaced (its answer is not walked again), the rest walked. */
function rewrite(value: unknown, replace: (node: object) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rewrite(inner, replace)]));
}

/** The logical id a `Ref` or `Fn::GetAtt` points at. */
export function logicalIdOf(reference: unknown): string {
  const ref = reference as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = ref.Ref ?? ref['Fn::GetAtt']?.[0];
  if (!id) throw new Error(`not a reference: ${JSON.stringify(reference)}`);
  return id;
}

/** An ARN as the template builds it (`Fn::Join`), as text: `arn:<AWS::Partition>:ses:…:configuration-set/<Id>`. */
export const arnText = (value: unknown): string => {
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return typeof value === 'string' ? value : `<${logicalIdOf(value)}>`;
  return join[1].map((part) => (typeof part === 'string' ? part : `<${logicalIdOf(part)}>`)).join(join[0]);
};

export const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

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
