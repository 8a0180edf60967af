import type { BuildOptions } from 'esbuild';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/*
 * How every Lambda function is bundled, said once: CDK's NodejsFunction reads `cdkBundling`, and the bundle-size test
 * and `npm run bench:cold` build the same entries through esbuild's API with `esbuildOptions`, flag for flag what
 * NodejsFunction passes to the esbuild CLI (test/infra/bundle-size.test.ts checks one real CDK bundling against it).
 */

/** The Lambda runtime's Node version (DESIGN.md §1). */
export const BUNDLE_TARGET = 'node22';

/** ESM packages first: their `import`/`export` lets esbuild drop what a function does not use. */
const MAIN_FIELDS = ['module', 'main'];

/** The bundle is ESM; CommonJS dependencies that call require() need one defined at the top of the module. */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * The AWS SDK is bundled (tree-shaken, minified) rather than loaded from the Lambda runtime's copy: measured side by
 * side, a new process loads a function with its bundled DynamoDB client in about half the time it takes to load the
 * same function and the runtime's node_modules copy (docs/decisions/0065-bundle-the-aws-sdk.md "Lean cold starts: the AWS SDK").
 * Left to the runtime's copy, because the SDK reaches them only through a dynamic import() on a path our functions
 * never take, so they cost no bytes and no load:
 * - the credential chain's fallbacks, imported only when the environment holds no credentials (never on Lambda, where
 *   the runtime sets them);
 * - `@smithy/core/event-streams`, imported only for an operation with an event-stream member, which none of the
 *   clients the project uses has (test/infra/sdk-event-streams.test.ts). Bundled, it cost ~20 KB per function, and
 *   its dynamic import made esbuild wrap every SDK module it reaches in a lazy initialiser.
 */
export const AWS_SDK_RUNTIME_MODULES: readonly string[] = [
  '@aws-sdk/credential-provider-http',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/nested-clients',
  '@aws-sdk/token-providers',
  '@smithy/credential-provider-imds',
  '@smithy/core/event-streams',
];

/** Every package of the AWS SDK: left out when measuring a function's own code. */
const AWS_SDK_PACKAGES: readonly string[] = ['@aws-sdk/*', '@smithy/*'];

/** `deployed`: as CDK builds it for Lambda. `own-code`: without the AWS SDK (the code the project controls). */
export type BundleScope = 'deployed' | 'own-code';

/** What CDK's NodejsFunction is given (its `bundling`), before a function adds its own hooks. */
export const cdkBundling: BundlingOptions = {
  format: OutputFormat.ESM,
  target: BUNDLE_TARGET,
  mainFields: MAIN_FIELDS,
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  sourceMap: true,
  // Pinned rather than left to CDK's default for the runtime (which leaves the whole SDK out), so the choice cannot
  // change under an upgrade of aws-cdk-lib.
  bundleAwsSDK: true,
  externalModules: [...AWS_SDK_RUNTIME_MODULES],
};

/** The same bundling through esbuild's API, for measuring (no source map: it is a separate file). */
export function esbuildOptions(entry: string, outfile: string, scope: BundleScope = 'deployed'): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: BUNDLE_TARGET,
    format: 'esm',
    mainFields: MAIN_FIELDS,
    banner: { js: ESM_REQUIRE_BANNER },
    minify: true,
    external: [...(scope === 'deployed' ? AWS_SDK_RUNTIME_MODULES : AWS_SDK_PACKAGES)],
    outfile,
    logLevel: 'error',
  };
}
