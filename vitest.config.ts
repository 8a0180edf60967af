import { defineConfig } from 'vitest/config';

// The SDK warns in every process that its 2027 releases need Node 22 (Lambda runs 22; this machine 20).
// Set here, in the main process, so global setup and the forked workers inherit it.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';

/**
 * The integration runtime (global setup, main process) points process.env at its local stores, and vitest builds
 * each worker's env from process.env after global setup ran. Unit and infra workers put these keys back as they
 * were when vitest started (test/integration/support/outer-env.ts).
 */
const RUNTIME_ENV_KEYS = [
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ENDPOINT_URL_SESV2',
  'TABLE_NAME',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'PUBLIC_BASE_URL',
  'JWT_HS256_SECRET',
  'JWT_ISSUER',
  'JWT_AUDIENCE',
  'WEBHOOK_ALLOW_PRIVATE_URLS',
  'IP_RATE_LIMIT_EXEMPT',
  'SENDER_IDENTITIES',
  'DNS_RESOLVER',
  'ONBOARDING_FROM_ADDRESS',
];
const outerEnv = {
  OUTER_ENV_SNAPSHOT: JSON.stringify(
    Object.fromEntries(RUNTIME_ENV_KEYS.map((key) => [key, process.env[key] ?? null])),
  ),
};
const outerEnvSetup = 'test/integration/support/outer-env.ts';

/**
 * Six projects: `vitest run --project unit|app|integration|chaos|infra|browser`.
 * Sized for a 2-core machine: two forked workers (forks isolate native modules and CDK's memory better than
 * threads); the integration runtime (Java + server) lives in the main process.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          env: outerEnv,
          setupFiles: [outerEnvSetup],
          // Each worker imports the modules once for all its files instead of once per file: the unit files mock by
          // instance (mockClient(db)) or reset their class mocks, so nothing a file sets outlives it; importing the
          // SDKs and the domain again for each of ~200 files was most of this project's time (decision: unit files
          // share their worker's modules).
          isolate: false,
        },
      },
      {
        // The dashboard's components (app/src) in happy-dom; JSX as app/tsconfig.json says (Preact).
        test: {
          name: 'app',
          include: ['app/test/**/*.test.tsx'],
          environment: 'happy-dom',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Runs of `npm start` in processes of their own, killed and restarted (scripts/chaos).
        test: {
          name: 'chaos',
          include: ['test/chaos/**/*.test.ts'],
          environment: 'node',
          env: outerEnv,
          setupFiles: [outerEnvSetup],
          testTimeout: 600_000,
        },
      },
      {
        // The dashboard in headless Chromium, on a runtime of its own (skipped without Chromium).
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          env: outerEnv,
          setupFiles: [outerEnvSetup],
          // The dashboard test walks every journey in one test (~140 s on a quiet 2-core machine with the new
          // client's domain walk, which waits out the check-now interval twice): a limit with room, not a target.
          testTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          // Each worker loads aws-cdk-lib once for all its files (≈ 10 s a load) instead of once per file; the files
          // build apps of their own and put back any environment they change, so nothing one sets outlives it.
          isolate: false,
          env: outerEnv,
          setupFiles: [outerEnvSetup],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
