import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';

/**
 * Lets `fn` read `secret` at run time and nothing more: the secret's ARN in `variable` (a `NAME_ARN` of
 * shared/config.ts, read by shared/composition/configured-secret.ts on first use) and `grantRead` on that one secret
 * (secretsmanager:GetSecretValue and DescribeSecret). The value itself never enters the template nor the function's
 * environment.
 */
export function grantSecretRead(fn: LambdaFunction, secret: ISecret, variable: string): void {
  secret.grantRead(fn);
  fn.addEnvironment(variable, secret.secretArn);
}
