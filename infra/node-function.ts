import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { TableAccess } from '../functions/routes.js';
import { sourcePathOf, STATIC_DIR, type StaticPackage } from '../shared/http/static-files.js';
import { cdkBundling } from './bundling.js';
import { tableIndexWildcardFinding } from './nag.js';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `functions/<kind>/<handler>.ts`: the entry esbuild bundles for one function of a table (or the API's fallback). */
export const entryOf = (kind: 'http' | 'queue' | 'scheduled' | 'stream' | 'fallback', handler: string): string =>
  path.join(PROJECT_ROOT, 'functions', kind, `${handler}.ts`);

export interface NodeFunctionProps {
  entry: string;
  description: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, string>;
  deletionProtection: boolean;
  /** Package files copied beside the bundle (`assets/`), read at run time instead of bundled. */
  staticFiles?: StaticPackage;
  /**
   * A log group shared with other functions (the HTTP routes'); absent: the function gets its own. The stack stays
   * under CloudFormation's 500 resources this way (docs/decisions/0087-stack-resource-budget.md); lines name their function (`function_name`).
   */
  logGroup?: ILogGroup;
  /**
   * A role shared with functions whose entries grant exactly the same (the HTTP routes', grouped by their needs:
   * infra/route-roles.ts); absent: the function gets its own.
   */
  role?: Role;
}

/**
 * One Lambda of the service (HTTP route, queue function or scheduled function): Node.js 22 on arm64, an ESM bundle
 * of its entry, its own log group and its own role that may write to that log group and nothing else until it is
 * granted more.
 */
export function createNodeFunction(scope: Construct, props: NodeFunctionProps): NodejsFunction {
  const logGroup =
    props.logGroup ??
    new LogGroup(scope, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  // Own role instead of AWSLambdaBasicExecutionRole: it may write to its log group and nothing else.
  const role =
    props.role ??
    new Role(scope, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
  logGroup.grantWrite(role);

  const fn = new NodejsFunction(scope, 'Function', {
    description: props.description,
    entry: props.entry,
    handler: 'handler',
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    timeout: Duration.seconds(props.timeoutSeconds),
    memorySize: props.memoryMb,
    role,
    logGroup,
    environment: props.environment,
    bundling: {
      ...cdkBundling,
      ...(props.staticFiles ? { commandHooks: copyStaticFiles(props.staticFiles) } : {}),
    },
  });
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-L1',
    reason:
      'Node.js 22 is pinned on purpose (DESIGN.md §1/§3): the bundle targets node22 and the same code runs ' +
      'on the Node 20/22 local runtime; moving to a newer Lambda runtime is a deliberate, tested upgrade.',
  });
  return fn;
}

/** Copies a package's files into the bundle's `assets/` after esbuild ran (they stay out of the JavaScript). */
function copyStaticFiles(source: StaticPackage) {
  return {
    beforeBundling: (): string[] => [],
    beforeInstall: (): string[] => [],
    afterBundling: (inputDir: string, outputDir: string): string[] => [
      `mkdir -p "${outputDir}/${STATIC_DIR}"`,
      ...Object.keys(source.files).map(
        (name) => `cp "${path.join(inputDir, sourcePathOf(source, name))}" "${outputDir}/${STATIC_DIR}/${name}"`,
      ),
    ],
  };
}

/** Read or read-write on the table (and its indexes), as the function's table entry says. */
export function grantTableAccess(fn: NodejsFunction, table: TableV2, access: TableAccess): void {
  if (access === 'read') table.grantReadData(fn);
  else table.grantReadWriteData(fn);
  Validations.of(fn.role!).acknowledge({
    id: `AwsSolutions-IAM5[${tableIndexWildcardFinding(table, fn)}]`,
    reason:
      'grantReadData/grantReadWriteData add `<table arn>/index/*` so the function can Query gsi1 (and ' +
      'indexes added later); the wildcard only spans the indexes of this one table.',
  });
}

/** `contacts-get` → `ContactsGet`: readable, stable logical ids. */
export function constructIdOf(handler: string): string {
  return handler
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
