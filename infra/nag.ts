import { CfnElement, Names, Stack, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
// The flattening cdk-nag applies to a resource before naming its IAM5 finding (the package has no exports map).
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

/**
 * Runs the cdk-nag AWS Solutions pack as a CDK policy-validation plugin: any finding that is not acknowledged
 * (`Validations.of(construct).acknowledge`, next to the resource it concerns) fails the synth.
 */
export function addNagChecks(app: IConstruct): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

/**
 * The IAM5 finding id of the `<table arn>/index/*` resource that DynamoDB table grants to `grantee` add, e.g.
 * `Resource::<TableCD117FA1.Arn>/index/*` in the table's stack, so exactly that wildcard is acknowledged and no other.
 */
export function tableIndexWildcardFinding(table: TableV2, grantee: IConstruct): string {
  return `Resource::${flattenCfnReference(resolveIn(grantee, table.tableArn))}/index/*`;
}

/**
 * The IAM5 finding id of a wildcard resource granted to `scope`, as cdk-nag names it, e.g.
 * `Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*`, so a grant acknowledges exactly
 * the wildcard it adds and no other.
 */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenCfnReference(resolveIn(scope, resource))}]`;
}

/**
 * `value` as the template of `scope`'s stack will hold it, which cdk-nag reads: a reference to a resource of a parent
 * stack becomes the nested stack's parameter CDK adds for it (`referenceto<unique id of the resource><attribute>`).
 */
function resolveIn(scope: IConstruct, value: string): unknown {
  const stack = Stack.of(scope);
  const parents: Stack[] = [];
  for (let parent = stack.nestedStackParent; parent; parent = parent.nestedStackParent) parents.push(parent);
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    const reference = node as { Ref?: unknown; 'Fn::GetAtt'?: [unknown, unknown] };
    const [id, attribute] = reference.Ref !== undefined ? [reference.Ref, 'Ref'] : (reference['Fn::GetAtt'] ?? []);
    const target = typeof id === 'string' && typeof attribute === 'string' ? elementIn(parents, id) : undefined;
    if (target)
      return { Ref: `referenceto${Names.nodeUniqueId(target.node)}${String(attribute)}`.replace(/[^A-Za-z0-9]/g, '') };
    return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, rewrite(inner)]));
  };
  return rewrite(stack.resolve(value));
}

/** The CloudFormation element of one of `stacks` (not of a stack nested in it) with that logical id. */
function elementIn(stacks: readonly Stack[], logicalId: string): CfnElement | undefined {
  for (const stack of stacks) {
    const found = stack.node
      .findAll()
      .find(
        (node): node is CfnElement =>
          CfnElement.isCfnElement(node) && Stack.of(node) === stack && stack.resolve(node.logicalId) === logicalId,
      );
    if (found) return found;
  }
  return undefined;
}
