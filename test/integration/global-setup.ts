import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';

/** How long one minute of a journey's wait or timeout lasts in the integration runtime. */
const INTEGRATION_JOURNEY_MINUTE_MS = 1_000;

/**
 * One local runtime for the whole integration run: free ports everywhere, DynamoDB in memory. The handlers run
 * here, in vitest's main process; the tests reach them over HTTP from their workers.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await quietHandlerLogs(process.env['INTEGRATION_LOG_LEVEL'] ?? 'WARN');
  // JWT bearer tokens are accepted when a verification key is configured; the tests sign with this secret.
  const jwt = {
    secret: randomBytes(32).toString('hex'),
    issuer: 'https://issuer.integration.test',
    audience: 'els-integration',
  };
  process.env['JWT_HS256_SECRET'] = jwt.secret;
  process.env['JWT_ISSUER'] = jwt.issuer;
  process.env['JWT_AUDIENCE'] = jwt.audience;
  // Webhook retries a second apart, so a receiver that fails twice gets its third attempt within the test.
  process.env['WEBHOOK_RETRY_SCHEDULE_SECONDS'] = '1,1,1,1,1,1,1';
  const { startLocalRuntime } = await import('../../local/runtime.js');
  const runtime = await startLocalRuntime({
    // A journey's minute lasts a second here: the runtime cannot fast-forward time, and a timeout's shortest is one
    // minute. Only the duration changes; the engine's code paths are the real ones (local/journey-time.ts).
    journeyMinuteMs: INTEGRATION_JOURNEY_MINUTE_MS,
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    host: '127.0.0.1',
    tableName: 'email-lifecycle',
    // Contract suites leave claims and queued events at fixed past times in this shared table (local/runtime.ts).
    periodicSweeps: false,
  });
  project.provide('baseUrl', runtime.baseUrl);
  project.provide('dynamoEndpoint', runtime.dynamoEndpoint);
  project.provide('tableName', runtime.tableName);
  project.provide('sesUrl', runtime.sesUrl);
  project.provide('jwt', jwt);
  project.provide('journeyMinuteMs', INTEGRATION_JOURNEY_MINUTE_MS);
  return () => runtime.stop();
}

/**
 * The handlers' logger reads POWERTOOLS_LOG_LEVEL once, when shared/logger.ts is first imported (here, in the same
 * module graph as the handlers); the variable is removed again so it does not leak into the test workers' env.
 */
async function quietHandlerLogs(level: string): Promise<void> {
  const previous = process.env['POWERTOOLS_LOG_LEVEL'];
  process.env['POWERTOOLS_LOG_LEVEL'] = previous ?? level;
  try {
    await import('../../shared/logger.js');
  } finally {
    if (previous === undefined) delete process.env['POWERTOOLS_LOG_LEVEL'];
  }
}
