import { get as httpGet } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, inject, it } from 'vitest';
import { checkContract } from './support/api.js';

/** The API reference page and its files over HTTP; the browser check is `npm run test:browser`. */
async function get(path: string, headers: Record<string, string> = {}) {
  // node:http, not fetch: fetch would undo the gzip the test wants to see.
  const {
    status,
    headers: received,
    bytes,
  } = await new Promise<{ status: number; headers: Headers; bytes: Buffer }>((resolve, reject) => {
    httpGet(`${inject('baseUrl')}${path}`, { headers }, (res) => {
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
    path: `/api/v1${path}`,
    status,
    contentType: received.get('content-type') ?? '',
    text: bytes.toString('utf8'),
  });
  return { status, headers: received, bytes, text: bytes.toString('utf8') };
}

const packageFile = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`));

describe('GET /api/v1/docs', () => {
  it('is an HTML page with a strict CSP that loads only its own files, and the OpenAPI document', async () => {
    const page = await get('/docs');

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual([
      // An empty icon, so the browser asks for no /favicon.ico.
      'data:,',
      expect.stringMatching(/^docs\/assets\/swagger-ui\.css\?v=\d+\.\d+\.\d+$/),
      expect.stringMatching(/^docs\/assets\/swagger-ui-bundle\.js\?v=/),
      expect.stringMatching(/^docs\/assets\/init\.js\?v=/),
    ]);
  });

  it.each([
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
  ])('serves %s from the pinned package, as %s, cached for good', async (name, type) => {
    const plain = await get(`/docs/assets/${name}?v=1`, { 'accept-encoding': 'identity' });
    const gzipped = await get(`/docs/assets/${name}?v=1`, { 'accept-encoding': 'gzip, br' });

    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe(type);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.equals(packageFile(name))).toBe(true);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(gunzipSync(gzipped.bytes).equals(packageFile(name))).toBe(true);
  });

  it('serves the start-up script that points Swagger UI at this API and at no validator', async () => {
    const init = await get('/docs/assets/init.js');

    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(init.text).toContain("new URL('openapi.json', document.baseURI)");
    expect(init.text).toContain('validatorUrl: null');
  });

  it.each(['index.html', '..%2Fpackage.json', 'swagger-ui-bundle.js.map', 'constructor'])(
    'answers 404 for %s',
    async (name) => {
      const res = await get(`/docs/assets/${name}`);

      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    },
  );
});
