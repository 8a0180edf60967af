import { Agent, request as httpRequest } from 'node:http';
import { inject } from 'vitest';

/**
 * HTTP exactly as written: `fetch` normalises paths (`/a/../b` → `/b`), re-encodes them and refuses some headers,
 * so a fuzzed request goes out through node:http with its path, headers and body bytes untouched.
 */
export interface RawRequest {
  method: string;
  /** Below `/api/v1`, already on-the-wire text (percent-encoding, `..`, query string included). */
  path: string;
  /** A repeated header is an array (sent as several header lines). */
  headers: Record<string, string | string[]>;
  body?: string | Uint8Array;
  /** The path is from the API's root (the public links `/u/…`, `/v/…`), not below `/api/v1`. */
  root?: boolean;
}

export interface RawAnswer {
  /** 0 when the connection failed before an answer arrived. */
  status: number;
  text: string;
  /** The answer's content type ('' when it has none). */
  contentType?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export async function sendRaw(req: RawRequest): Promise<RawAnswer> {
  const base = new URL(inject('baseUrl'));
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: `${req.root ? '' : base.pathname}${req.path}`,
        headers: { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: res.headers['content-type'] ?? '',
          }),
        );
        res.on('error', reject);
      },
    );
    // A connection cut instead of an answer is a finding too, not a crash of the test.
    outgoing.on('error', (error) => resolve({ status: 0, text: `(no answer: ${error.message})` }));
    outgoing.end(body);
  });
}
