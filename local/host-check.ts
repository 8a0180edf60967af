import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/**
 * DNS rebinding: a page a developer visits can point its own name at 127.0.0.1 and then read the local servers as
 * its own origin (the SES viewer's live sign-in links, the /dev/* routes). A browser always sends the name it resolved
 * in `Host`, so the local servers answer only the names that are theirs: loopback by address or `localhost`, the
 * address they are bound to, and the hosts of the configured public origins (PUBLIC_BASE_URL, LINKS_BASE_URL) — each
 * with the server's port. Any other `Host` is answered 421 Misdirected Request and reaches nothing.
 */
export interface HostNames {
  /** The port the server listens on. */
  port: number;
  /** The address it is bound to (`HOST`); a wildcard (0.0.0.0, ::) adds nothing. */
  bindHost?: string;
  /** Origins the server is also reached by (PUBLIC_BASE_URL, LINKS_BASE_URL): their `host` as URLs write it. */
  origins?: readonly (string | undefined)[];
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** Every `Host` value the server answers, lower-case: `name:port`, and the bare name when the port is HTTP's 80. */
export function allowedHosts(names: HostNames): ReadonlySet<string> {
  const hosts = new Set<string>();
  const bind = names.bindHost?.toLowerCase();
  const bound = bind && !WILDCARDS.has(bind) ? [isIP(bind) === 6 ? `[${bind}]` : bind] : [];
  for (const name of [...LOOPBACK_NAMES, ...bound]) {
    hosts.add(`${name}:${names.port}`);
    if (names.port === 80) hosts.add(name);
  }
  for (const origin of names.origins ?? []) {
    if (!origin) continue;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      continue;
    }
    // URL.host leaves out the scheme's default port; a client may still write it.
    hosts.add(url.host.toLowerCase());
    const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
    if (port) hosts.add(`${url.hostname.toLowerCase()}:${port}`);
  }
  return hosts;
}

/** Whether a request's `Host` header names this server (HTTP/1.1 requires exactly one). */
export function isOwnHost(header: string | string[] | undefined, allowed: ReadonlySet<string>): boolean {
  if (typeof header !== 'string') return false;
  return allowed.has(header.trim().toLowerCase());
}

/** The 421 a request for another host gets: plain text, nothing of the server's. */
export function refuseMisdirected(res: ServerResponse): void {
  const body =
    'Misdirected Request: this local server answers only its own host names (127.0.0.1, localhost, [::1]).\n';
  res.writeHead(421, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

/**
 * Puts the host check in front of a server someone else built (aws-ses-v2-local's Express app): its request listeners
 * run only for a request whose `Host` is allowed.
 */
export function guardServerHosts(server: Server, allowed: ReadonlySet<string>): void {
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!isOwnHost(req.headers.host, allowed)) {
      req.resume();
      refuseMisdirected(res);
      return;
    }
    for (const listener of listeners) listener.call(server, req, res);
  });
}
