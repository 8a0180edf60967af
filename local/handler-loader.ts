import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';

/** The handler contract: `functions/http/<name>.ts` exports `handler(event, context)`. */
export type HttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export type FunctionKind = 'http' | 'queue' | 'scheduled' | 'stream';

export class HandlerModuleNotFoundError extends Error {
  constructor(readonly file: string) {
    super(`handler module ${file} does not exist`);
    this.name = 'HandlerModuleNotFoundError';
  }
}

const FUNCTIONS_DIR = new URL('../functions/', import.meta.url);

/** Absolute path of `functions/<kind>/<name>.ts`. */
export function handlerModulePath(kind: FunctionKind, name: string): string {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`invalid handler name "${name}"`);
  return fileURLToPath(new URL(`${kind}/${name}.ts`, FUNCTIONS_DIR));
}

/**
 * Imports a handler lazily, once per process (a warm container). A failed import is not cached, so a handler
 * file written while the server runs is picked up by the next request.
 */
export function createHandlerLoader<H = HttpHandler>(kind: FunctionKind): (name: string) => Promise<H> {
  const loaded = new Map<string, Promise<H>>();
  return (name) => {
    const cached = loaded.get(name);
    if (cached) return cached;
    const file = handlerModulePath(kind, name);
    const pending = (async () => {
      if (!existsSync(file)) throw new HandlerModuleNotFoundError(`functions/${kind}/${name}.ts`);
      const mod = (await import(pathToFileURL(file).href)) as { handler?: unknown };
      if (typeof mod.handler !== 'function') throw new Error(`functions/${kind}/${name}.ts has no handler export`);
      return mod.handler as H;
    })();
    loaded.set(name, pending);
    pending.catch(() => loaded.delete(name));
    return pending;
  };
}
