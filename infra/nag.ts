import { Stack, Validations, type CfnElement } from 'aws-cdk-lib';
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
 * The IAM5 finding id of the `<table arn>/index/*` resource that DynamoDB table grants add, e.g.
 * `Resource::<TableCD117FA1.Arn>/index/*`, so exactly that wildcard is acknowledged and no other.
 */
export function tableIndexWildcardFinding(table: TableV2): string {
  const cfnTable = table.node.defaultChild as CfnElement;
  const logicalId: unknown = Stack.of(table).resolve(cfnTable.logicalId);
  return `Resource::<${String(logicalId)}.Arn>/index/*`;
}

/**
 * The IAM5 finding id of a wildcard resource as cdk-nag names it, e.g.
 * `Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*`, so a grant acknowledges exactly
 * the wildcard it adds and no other.
 */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resource))}]`;
}
