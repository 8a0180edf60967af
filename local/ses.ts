import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
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

/**
 * aws-ses-v2-local draws a message id from 900 million values (`ses-` and 9 random digits): among 100,000 mails about
 * 5.6 repeat, and a repeated id makes a later e-mail's provider-id item (`MSG#<id>`) replace an earlier one's, so the
 * earlier e-mail's notifications would land on the later one. SES's own ids never repeat. The package reads
 * `getMessageId` from its util module's exports at every send, so the local runtime gives it a UUID-based one.
 */
function uniqueMessageIds(): void {
  const util = createRequire(import.meta.url)('aws-ses-v2-local/dist/util.js') as { getMessageId?: () => string };
  if (typeof util.getMessageId !== 'function') throw new Error('aws-ses-v2-local: no util.getMessageId to replace');
  util.getMessageId = () => `ses-${randomUUID()}`;
}

export async function startSesLocal(options: SesLocalOptions): Promise<SesLocalHandle> {
  uniqueMessageIds();
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
