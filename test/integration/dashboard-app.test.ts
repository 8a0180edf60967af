import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { checkContract } from './support/api.js';

/** The dashboard's HTML and files over HTTP; the browser check is scripts/browser/dashboard.ts. */
async function get(path: string, headers: Record<string, string> = {}) {
  // node:http, not fetch: fetch would undo the gzip the test wants to see.
  const origin = new URL(inject('baseUrl')).origin;
  const {
    status,
    headers: received,
    bytes,
  } = await new Promise<{ status: number; headers: Headers; bytes: Buffer }>((resolve, reject) => {
    httpGet(`${origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') h.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers: h, bytes: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
  await checkContract({
    method: 'GET',
    path,
    status,
    contentType: received.get('content-type') ?? '',
    text: bytes.toString('utf8'),
  });
  return { status, headers: received, bytes, text: bytes.toString('utf8') };
}

const built = (name: string) => readFileSync(new URL(`../../app/dist/${name}`, import.meta.url));
const manifest = JSON.parse(built('manifest.json').toString('utf8')) as Record<'app.js' | 'app.css', string>;

describe('GET /app, /app/{name} and /app/{name}/{id}', () => {
  it.each([
    '/app',
    '/app/sign-in',
    '/app/overview',
    '/app/contact/42',
    '/app/contact/ann%40example.com',
    '/app/sent-email/0b7d2f2e-4a8f-4c55-9d1e-3c1f6e2a9b10',
  ])('%s is the app: its HTML, a strict CSP, only its own content-hashed files', async (path) => {
    const page = await get(path);

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(page.text).not.toMatch(/https?:\/\//);
    // No inline script: every <script> names its file.
    expect(page.text.match(/<script[^>]*>/g)).toEqual([`<script type="module" src="/app/${manifest['app.js']}">`]);
    expect([...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'data:,',
      `/app/${manifest['app.css']}`,
      `/app/${manifest['app.js']}`,
    ]);
  });

  it.each([
    ['app.js', 'text/javascript; charset=utf-8'],
    ['app.css', 'text/css; charset=utf-8'],
  ] as const)(
    'serves the built %s under its content-hashed name, gzipped when asked, cached for good',
    async (name, type) => {
      const url = `/app/${manifest[name]}`;
      expect(manifest[name]).toMatch(/^app\.[0-9a-f]{12}\.(js|css)$/);

      const plain = await get(url, { 'accept-encoding': 'identity' });
      const gzipped = await get(url, { 'accept-encoding': 'gzip, br' });

      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toBe(type);
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.bytes.equals(built(name))).toBe(true);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(gzipped.headers.get('content-encoding')).toBe('gzip');
      expect(gzipped.headers.get('vary')).toBe('Accept-Encoding');
      expect(gunzipSync(gzipped.bytes).equals(built(name))).toBe(true);
    },
  );

  it.each(['app.js', 'manifest.json', 'app.000000000000.js', 'billing', '..%2Fpackage.json', 'toString'])(
    'answers 404 for %s: neither a page of the app nor a file under its hashed name',
    async (name) => {
      const answer = await get(`/app/${name}`);

      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    },
  );
});

describe('GET /app/{name}/{id}: a record page', () => {
  it.each([
    ['a page that shows no record', '/app/overview/42'],
    ['a name that is no page', '/app/billing/42'],
    ['an app file', '/app/app.js/1'],
    ['an id past the path bound', `/app/contact/${'1'.repeat(321)}`],
  ])('answers the 404 page for %s', async (_, path) => {
    const answer = await get(path);

    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.text).toContain('No such page of the dashboard');
  });
});
