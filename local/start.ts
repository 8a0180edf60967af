/**
 * `npm start`: the local runtime on PORT (3000), DYNAMODB_PORT (8000), SES_PORT (8005), HOST (127.0.0.1), in memory
 * or persisted under DATA_DIR. Creates a demo client on an empty store and prints its API key once.
 * Quiet: the handlers log warnings and errors only, unless ACCESS_LOG=1 or POWERTOOLS_LOG_LEVEL is set.
 * Writes a runtime descriptor (local/runtime-descriptor.ts) so scripts find it by its API port.
 * Ctrl-C / SIGTERM stops DynamoDB Local (Java), SES and the server, then exits 0.
 */
import { quietHandlerLogsByDefault } from './log-level.js';
import { portFromEnv } from './tcp-ports.js';
import type { LocalRuntime } from './runtime.js';
import { writeRuntimeDescriptor } from './runtime-descriptor.js';

const env = process.env;
// The SDK warns once per process that its 2027 releases need Node 22; Lambda runs Node 22, this machine 20.
env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
quietHandlerLogsByDefault(env);

async function main(): Promise<void> {
  // Imported only now: the handlers' logger reads its level when first imported, after the line above.
  const { startLocalRuntime } = await import('./runtime.js');
  const { ensureDemoClient } = await import('./demo-client.js');
  const { corsPolicy, parseCorsOrigins } = await import('../shared/http/cors.js');
  const dataDir = env['DATA_DIR']?.trim() || undefined;
  // The setting infra reads too (infra/stack-settings.ts): a bad origin stops the start with a precise message.
  const cors = corsPolicy(parseCorsOrigins(env['CORS_ORIGINS']));
  const runtime = await startLocalRuntime({
    cors,
    port: portFromEnv(env, 'PORT', 3000),
    dynamoPort: portFromEnv(env, 'DYNAMODB_PORT', 8000),
    sesPort: portFromEnv(env, 'SES_PORT', 8005),
    host: env['HOST']?.trim() || '127.0.0.1',
    dataDir,
    accessLog: env['ACCESS_LOG'] === '1' ? (line) => console.log(line) : undefined,
  });
  describeForScripts(runtime);
  stopOnSignals(runtime);

  console.log('Email Lifecycle Service — local runtime');
  console.log(
    `  DynamoDB Local   ${runtime.dynamoEndpoint} (table ${runtime.tableName}, ${dataDir ? `data in ${dataDir}` : 'in memory'})`,
  );
  if (runtime.dynamoWarning) console.warn(`  Warning: ${runtime.dynamoWarning}`);
  console.log(`  SES mail viewer  ${runtime.sesUrl}/`);
  if (cors) console.log(`  CORS origins     ${cors.allowOrigins.join(', ')}`);
  console.log('');
  for (const line of await ensureDemoClient(runtime.baseUrl)) console.log(line);
  console.log('');
  console.log(`API ready at ${runtime.baseUrl}`);
}

/** `npm run invoke` and `npm run admin` find this runtime by its API port (PORT or --port) through this file. */
function describeForScripts(runtime: LocalRuntime): void {
  try {
    const { baseUrl, port, dynamoEndpoint, sesUrl, tableName } = runtime;
    process.once('exit', writeRuntimeDescriptor({ baseUrl, port, dynamoEndpoint, sesUrl, tableName }));
  } catch (error) {
    console.warn(
      `Scripts cannot find this runtime by its port (${error instanceof Error ? error.message : String(error)}); ` +
        `give them DYNAMODB_PORT=${new URL(runtime.dynamoEndpoint).port}.`,
    );
  }
}

function stopOnSignals(runtime: LocalRuntime): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C: leave now; the exit hook still SIGKILLs Java.
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${signal} received, stopping DynamoDB Local, SES and the API…`);
    // What FAULTS injected over this lifetime, for the operator and the chaos runs that read it back.
    if (runtime.faults) console.log(`Faults injected: ${JSON.stringify(runtime.faults.counts())}`);
    runtime
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error('Stopping failed:', error);
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
}

main().catch((error: unknown) => {
  console.error(`Local runtime failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
