/**
 * Invokes one Lambda handler in-process with an event file, like `sam local invoke` without Docker.
 *   npm run invoke -- <handler> <event.json> [--fresh] [--kind http|queue]
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { buildDeps, getDeps, setDeps } from '../shared/composition.js';
import { createClient } from '../shared/domain/clients/create-client.js';
import { ensureTable, startDynamoLocal, type DynamoLocalHandle } from '../local/dynamodb.js';
import { createHandlerLoader, handlerModulePath, type FunctionKind } from '../local/handler-loader.js';
import { createLambdaContext } from '../local/lambda-context.js';
import { portFromEnv } from '../local/ports.js';
import { pointEnvironmentAt } from '../local/runtime.js';
import { startSesLocal, type SesLocalHandle } from '../local/ses.js';

const HELP = `Usage: npm run invoke -- <handler> <event.json> [options]

Loads functions/http/<handler>.ts (or functions/queue/<handler>.ts), reads the event, calls
handler(event, context) once and prints the result as JSON on stdout (timing on stderr).

Stores
  If a DynamoDB Local answers at AWS_ENDPOINT_URL_DYNAMODB, or else at http://127.0.0.1:\${DYNAMODB_PORT:-8000}
  (a running \`npm start\`), the handler uses it and its SES at AWS_ENDPOINT_URL_SESV2 or
  http://127.0.0.1:\${SES_PORT:-8005}. If DYNAMODB_PORT / AWS_ENDPOINT_URL_DYNAMODB is set but nothing answers,
  that is an error. Otherwise (or with --fresh) a private in-memory DynamoDB Local and SES start on free ports and
  stop afterwards.

Placeholders
  \${API_KEY} anywhere in the event file is replaced by env API_KEY. With private stores and no API_KEY, a
  throwaway client is created and its key used. Against a running store, set API_KEY (npm start prints one).

Options
  --fresh             always use private in-memory stores
  --kind http|queue   where the handler lives (default: whichever file exists, http first)
  -h, --help          this text

Examples
  npm run invoke -- health events-samples/health.json
  API_KEY=els_... npm run invoke -- contacts-create events-samples/contacts-create.json
`;

class UsageError extends Error {}

interface Stores {
  mode: 'running' | 'private';
  stop(): Promise<void>;
}

async function answers(endpoint: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: process.env['AWS_REGION'] ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(1_500) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

async function openStores(fresh: boolean): Promise<Stores> {
  const env = process.env;
  const tableName = env['TABLE_NAME'] ?? 'email-lifecycle';
  const explicit = env['AWS_ENDPOINT_URL_DYNAMODB'] !== undefined || env['DYNAMODB_PORT'] !== undefined;
  const endpoint = env['AWS_ENDPOINT_URL_DYNAMODB'] ?? `http://127.0.0.1:${portFromEnv(env, 'DYNAMODB_PORT', 8000)}`;

  if (!fresh && (await answers(endpoint))) {
    const client = new DynamoDBClient({
      endpoint,
      region: env['AWS_REGION'] ?? 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await ensureTable(client, tableName).finally(() => client.destroy());
    const sesUrl = env['AWS_ENDPOINT_URL_SESV2'] ?? `http://127.0.0.1:${portFromEnv(env, 'SES_PORT', 8005)}`;
    pointEnvironmentAt({ dynamoEndpoint: endpoint, sesUrl, tableName, origin: 'http://127.0.0.1:3000' });
    process.stderr.write(`invoke: using the running DynamoDB Local at ${endpoint} (table ${tableName})\n`);
    return { mode: 'running', stop: async () => undefined };
  }
  if (!fresh && explicit) {
    throw new UsageError(`nothing answers at ${endpoint}; start \`npm start\` or unset DYNAMODB_PORT / use --fresh`);
  }

  process.stderr.write('invoke: starting a private in-memory DynamoDB Local and SES…\n');
  let dynamo: DynamoLocalHandle | undefined;
  let ses: SesLocalHandle | undefined;
  try {
    [dynamo, ses] = await Promise.all([
      startDynamoLocal({ port: 0, tableName }),
      startSesLocal({ host: '127.0.0.1', port: 0 }),
    ]);
  } catch (error) {
    await Promise.allSettled([dynamo?.stop(), ses?.stop()]);
    throw error;
  }
  pointEnvironmentAt({ dynamoEndpoint: dynamo.endpoint, sesUrl: ses.url, tableName, origin: 'http://127.0.0.1:3000' });
  const started = { dynamo, ses };
  return {
    mode: 'private',
    stop: async () => {
      await Promise.allSettled([started.dynamo.stop(), started.ses.stop()]);
    },
  };
}

function kindOf(name: string, requested: string | undefined): FunctionKind {
  if (requested !== undefined) {
    if (requested !== 'http' && requested !== 'queue') throw new UsageError('--kind must be http or queue');
    if (!existsSync(handlerModulePath(requested, name))) throw new UsageError(`functions/${requested}/${name}.ts does not exist`);
    return requested;
  }
  for (const kind of ['http', 'queue'] as const) if (existsSync(handlerModulePath(kind, name))) return kind;
  throw new UsageError(`no handler "${name}" in functions/http or functions/queue`);
}

async function fillPlaceholders(text: string, mode: Stores['mode']): Promise<string> {
  if (!text.includes('${API_KEY}')) return text;
  let key = process.env['API_KEY'];
  if (!key) {
    if (mode === 'running') {
      throw new UsageError('the event needs ${API_KEY}: set API_KEY to a key of the running store (npm start prints one)');
    }
    key = (await createClient(getDeps(), { email: 'invoke@example.com', name: 'Invoke script' })).api_key;
    process.stderr.write('invoke: created a throwaway client for ${API_KEY}\n');
  }
  return text.replaceAll('${API_KEY}', key);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      fresh: { type: 'boolean', default: false },
      kind: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const [name, eventFile, extra] = positionals;
  if (!name || !eventFile || extra !== undefined) throw new UsageError('expected <handler> <event.json>');
  const kind = kindOf(name, values.kind);
  if (!existsSync(eventFile)) throw new UsageError(`event file ${eventFile} not found`);

  const stores = await openStores(values.fresh);
  try {
    setDeps(buildDeps());
    const event = JSON.parse(await fillPlaceholders(readFileSync(eventFile, 'utf8'), stores.mode)) as unknown;
    const handler = await createHandlerLoader<(event: unknown, context: unknown) => Promise<unknown>>(kind)(name);
    const context = createLambdaContext({ functionName: name, awsRequestId: randomUUID() });
    const started = Date.now();
    try {
      const result = await handler(event, context);
      process.stdout.write(`${JSON.stringify(result ?? null, null, 2)}\n`);
      const status = (result as { statusCode?: number } | undefined)?.statusCode;
      process.stderr.write(`invoke: ${name} returned${status ? ` ${status}` : ''} in ${Date.now() - started} ms\n`);
      return 0;
    } catch (error) {
      process.stderr.write(`invoke: ${name} threw after ${Date.now() - started} ms:\n`);
      console.error(error);
      return 1;
    }
  } finally {
    await stores.stop();
  }
}

process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`invoke: ${error instanceof Error ? error.message : String(error)}\n`);
    if (usage) process.stderr.write('Run "npm run invoke -- --help" for usage.\n');
    process.exit(usage ? 2 : 1);
  });
