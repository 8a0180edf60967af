import { createServer } from 'node:net';

/**
 * TCP port helpers for the local runtime: port 0 means "pick a free one", any other port must be free before a
 * child (Java) is spawned on it — otherwise readiness polling would happily talk to whatever already listens there.
 */

/** Listens on `port` (0 = any) for an instant and returns the port the OS gave; rejects with EADDRINUSE etc. */
function probe(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const chosen = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(chosen));
    });
  });
}

/** Returns `port` when it is free, a free port when it is 0; fails with a message naming the env variable. */
export async function reservePort(port: number, host: string, envName: string): Promise<number> {
  try {
    return await probe(port, host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(
        `Port ${port} (${envName}) is already in use on ${host}; choose another one or 0 for a free port`,
      );
    }
    throw error;
  }
}

/** Parses a port from the environment: absent → fallback, otherwise an integer 0–65535. */
export function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

/** Host to put in a URL: a wildcard listen address is reached through loopback; IPv6 goes in brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
