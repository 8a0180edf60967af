import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as sesModule from 'aws-ses-v2-local';
import { allowedHosts, guardServerHosts } from './host-check.js';
import { reservePort, urlHost } from './tcp-ports.js';

/**
 * aws-ses-v2-local: an SES v1/v2 HTTP endpoint whose web page (`/`) shows every mail sent, `/store` as JSON.
 * Its store is module-global, so two servers in one process would share mails (one per process is the rule).
 */
export interface SesLocalOptions {
  host: string;
  /** 0 = a free port. */
  port: number;
}

export interface SesLocalHandle {
  /** Endpoint for the SDK (`AWS_ENDPOINT_URL_SESV2`) and the mail viewer. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

type StartSes = (config?: { host?: string; port?: number }) => Promise<Server>;

/** The package is CommonJS with `exports.default`; Node's ESM loader hands us the whole exports object. */
function resolveStart(): StartSes {
  const candidate = (sesModule as { default?: unknown }).default;
  const inner = (candidate as { default?: unknown } | undefined)?.default;
  const start = typeof candidate === 'function' ? candidate : inner;
  if (typeof start !== 'function') throw new Error('aws-ses-v2-local: no server factory exported');
  return start as StartSes;
}

export async function startSesLocal(options: SesLocalOptions): Promise<SesLocalHandle> {
  const wanted = await reservePort(options.port, options.host, 'SES_PORT');
  const server = await resolveStart()({ host: options.host, port: wanted });
  // Express 5 reports a listen error through the callback and the package resolves anyway.
  if (!server.listening) throw new Error(`aws-ses-v2-local could not listen on ${options.host}:${wanted}`);
  const { port } = server.address() as AddressInfo;
  // The viewer shows every mail sent, live sign-in links among them: only its own host names reach it (DNS rebinding).
  guardServerHosts(server, allowedHosts({ port, bindHost: options.host }));
  return {
    url: `http://${urlHost(options.host)}:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolveStop) => {
        server.close(() => resolveStop());
        server.closeAllConnections();
      }),
  };
}
