import { portFromEnv } from './tcp-ports.js';
import { defaultDescriptorDir, findRuntime, type RuntimeDescriptor } from './runtime-descriptor.js';

/**
 * Which local store a script (`npm run invoke`, `npm run admin`) talks to, first match wins:
 * 1. `AWS_ENDPOINT_URL_DYNAMODB`: that endpoint;
 * 2. `DYNAMODB_PORT`: DynamoDB Local on that port of 127.0.0.1;
 * 3. the `npm start` serving API port `--port`, else `PORT`, else 3000, found by its runtime descriptor;
 * 4. nothing given and no runtime on 3000: DynamoDB Local on 127.0.0.1:8000, if one answers there.
 * What the user named (1–3 with a port given) and cannot be found is an error, never a reason to use another store.
 */
export interface LocalStoreTarget {
  dynamoEndpoint: string;
  sesUrl: string;
  tableName: string;
  /** Origin for links the handlers build (PUBLIC_BASE_URL). */
  origin: string;
  /** Printed on stderr, so the user sees which store answered. */
  description: string;
  /** Named by the user: when it does not answer, that is the error to report. */
  explicit: boolean;
}

export const DEFAULT_API_PORT = 3000;

export class NoRuntimeOnPortError extends Error {
  constructor(
    readonly apiPort: number,
    otherwise = 'name the store with DYNAMODB_PORT / AWS_ENDPOINT_URL_DYNAMODB',
  ) {
    super(
      `no \`npm start\` is running on API port ${apiPort} (no live runtime descriptor in ${defaultDescriptorDir()}); ` +
        `start one with PORT=${apiPort} npm start, or ${otherwise}`,
    );
    this.name = 'NoRuntimeOnPortError';
  }
}

/**
 * The running `npm start` itself, for what only its process holds (the in-process queue's dead letters): the one on
 * API port `--port`, else `PORT`, else 3000, found by its runtime descriptor; none there is an error.
 */
export function localRuntime(env: NodeJS.ProcessEnv, apiPortFlag?: number, descriptorDir?: string): RuntimeDescriptor {
  const apiPort = apiPortFlag ?? (env['PORT']?.trim() ? portFromEnv(env, 'PORT', DEFAULT_API_PORT) : DEFAULT_API_PORT);
  const runtime = findRuntime(apiPort, descriptorDir);
  if (!runtime) throw new NoRuntimeOnPortError(apiPort, 'pass --port with the API port of the one that runs');
  return runtime;
}

export function localStoreTarget(
  env: NodeJS.ProcessEnv,
  apiPortFlag?: number,
  descriptorDir?: string,
): LocalStoreTarget {
  const tableName = env['TABLE_NAME'] ?? 'email-lifecycle';
  const sesUrl = env['AWS_ENDPOINT_URL_SESV2'] ?? `http://127.0.0.1:${portFromEnv(env, 'SES_PORT', 8005)}`;
  const origin = `http://127.0.0.1:${DEFAULT_API_PORT}`;
  const endpoint = env['AWS_ENDPOINT_URL_DYNAMODB'];
  if (endpoint !== undefined) {
    return {
      dynamoEndpoint: endpoint,
      sesUrl,
      tableName,
      origin,
      description: `DynamoDB at ${endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`,
      explicit: true,
    };
  }
  if (env['DYNAMODB_PORT'] !== undefined && env['DYNAMODB_PORT'].trim() !== '') {
    const dynamoEndpoint = `http://127.0.0.1:${portFromEnv(env, 'DYNAMODB_PORT', 8000)}`;
    return {
      dynamoEndpoint,
      sesUrl,
      tableName,
      origin,
      description: `DynamoDB Local at ${dynamoEndpoint} (DYNAMODB_PORT)`,
      explicit: true,
    };
  }

  const named = apiPortFlag ?? (env['PORT']?.trim() ? portFromEnv(env, 'PORT', DEFAULT_API_PORT) : undefined);
  const apiPort = named ?? DEFAULT_API_PORT;
  const runtime = findRuntime(apiPort, descriptorDir);
  if (runtime) {
    return {
      dynamoEndpoint: runtime.dynamoEndpoint,
      sesUrl: runtime.sesUrl,
      tableName: runtime.tableName,
      origin: new URL(runtime.baseUrl).origin,
      description: `the npm start on port ${apiPort} (pid ${runtime.pid}): DynamoDB Local at ${runtime.dynamoEndpoint}, table ${runtime.tableName}`,
      explicit: true,
    };
  }
  if (named !== undefined) throw new NoRuntimeOnPortError(named);
  const dynamoEndpoint = 'http://127.0.0.1:8000';
  return {
    dynamoEndpoint,
    sesUrl,
    tableName,
    origin,
    description: `DynamoDB Local at ${dynamoEndpoint} (the default port)`,
    explicit: false,
  };
}
