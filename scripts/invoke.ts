/**
 * Invokes one Lambda handler in-process with an event file, like `sam local invoke` without Docker.
 *   npm run invoke -- <handler> <event.json> [--port N] [--fresh] [--kind http|queue]
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createContainer, setContainer } from '../shared/composition/container.js';
import { clientAdminDeps } from '../shared/composition/providers/client-admin.js';
import { createClient } from '../shared/domain/clients/create-client.js';
import { ensureTable, startDynamoLocal, type DynamoLocalHandle } from '../local/dynamodb.js';
import { createHandlerLoader, handlerModulePath, type FunctionKind } from '../local/handler-loader.js';
import { createLambdaContext } from '../local/lambda-context.js';
import { quietHandlerLogsByDefault } from '../local/log-level.js';
import { pointEnvironmentAt } from '../local/runtime.js';
import { startSesLocal, type SesLocalHandle } from '../local/ses.js';
import { localStoreTarget, NoRuntimeOnPortError } from '../local/store-target.js';

const HELP = `Usage: npm run invoke -- <handler> <event.json> [options]

Loads functions/http/<handler>.ts (or functions/queue/<handler>.ts), reads the event, calls
handler(event, context) once and prints the result as JSON on stdout (timing on stderr).

Stores (the one used is named on stderr)
  1. AWS_ENDPOINT_URL_DYNAMODB, or DynamoDB Local on 127.0.0.1:$DYNAMODB_PORT, when set;
  2. else the running \`npm start\` on API port --port, else $PORT, else 3000: npm start writes where its
     DynamoDB Local, SES and table are, so any ports it was given are found;
  3. else (nothing named, no npm start on 3000) a DynamoDB Local on 127.0.0.1:8000 if one answers;
  4. else, or with --fresh, a private in-memory DynamoDB Local and SES on free ports, stopped afterwards.
  A store named in 1 or 2 that does not answer is an error, never a reason to fall back to a private one.

Placeholders
  \${API_KEY} anywhere in the event file is replaced by env API_KEY. With private stores and no API_KEY, a
  throwaway client is created and its key used. Against a running store, set API_KEY (npm start prints one).

Options
  --port N            the API port of the running npm start to use (default $PORT, else 3000)
  --fresh             always use private in-memory stores
  --kind http|queue   where the handler lives (default: whichever file exists, http first)
  -h, --help          this text

Examples
  npm run invoke -- health events-samples/health.json
  API_KEY=els_... npm run invoke -- contacts-create events-samples/contacts-create.json
  API_KEY=els_... npm run invoke -- contacts-create events-samples/contacts-create.json --port 3100
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

async function openStores(fresh: boolean, apiPort: number | undefined): Promise<Stores> {
  const env = process.env;
  if (!fresh) {
    const target = localStoreTarget(env, apiPort);
    if (await answers(target.dynamoEndpoint)) {
      const client = new DynamoDBClient({
        endpoint: target.dynamoEndpoint,
        region: env['AWS_REGION'] ?? 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      await ensureTable(client, target.tableName).finally(() => client.destroy());
      pointEnvironmentAt(target);
      process.stderr.write(`invoke: using ${target.description}\n`);
      return { mode: 'running', stop: async () => undefined };
    }
    if (target.explicit) {
      throw new Error(`${target.description} does not answer; start \`npm start\` or use --fresh`);
    }
  }

  const tableName = env['TABLE_NAME'] ?? 'email-lifecycle';
  if (!fresh) process.stderr.write('invoke: no npm start found on port 3000 (name another with --port or PORT)\n');
  process.stderr.write('invoke: starting a private in-memory DynamoDB Local and SES; nothing is kept afterwards\n');
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
    if (!existsSync(handlerModulePath(requested, name)))
      throw new UsageError(`functions/${requested}/${name}.ts does not exist`);
    return requested;
  }
  for (const kind of ['http', 'queue'] as const) if (existsSync(handlerModulePath(kind, name))) return kind;
  throw new UsageError(`no handler "${name}" in functions/http or functions/queue`);
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--port must be an integer 1–65535, got "${raw}"`);
  return port;
}

async function fillPlaceholders(text: string, mode: Stores['mode']): Promise<string> {
  if (!text.includes('${API_KEY}')) return text;
  let key = process.env['API_KEY'];
  if (!key) {
    if (mode === 'running') {
      throw new UsageError(
        'the event needs ${API_KEY}: set API_KEY to a key of the running store (npm start prints one)',
      );
    }
    key = (await createClient(clientAdminDeps(), { email: 'invoke@example.com', name: 'Invoke script' })).api_key;
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
      port: { type: 'string' },
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

  const apiPort = values.port === undefined ? undefined : parsePort(values.port);
  const stores = await openStores(values.fresh, apiPort);
  try {
    setContainer(createContainer());
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
// Before main() imports the handler: stdout is the handler's result, not its INFO log lines.
quietHandlerLogsByDefault(process.env);
main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    const usage =
      error instanceof UsageError ||
      error instanceof NoRuntimeOnPortError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`invoke: ${error instanceof Error ? error.message : String(error)}\n`);
    if (usage) process.stderr.write('Run "npm run invoke -- --help" for usage.\n');
    process.exit(usage ? 2 : 1);
  });
