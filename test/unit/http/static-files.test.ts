import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, StaticFiles } from '../../../shared/http/static-files.js';

const SOURCE = { package: 'swagger-ui-dist', files: { 'swagger-ui.css': 'text/css; charset=utf-8' } };

describe('StaticFiles', () => {
  it('reads a file beside the bundle first (Lambda), gzipped when asked', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets', 'swagger-ui.css'), 'body{color:red}');
    const files = new StaticFiles(SOURCE, pathToFileURL(path.join(dir, 'index.mjs')).href);

    const plain = await files.get('swagger-ui.css', false);
    const gzipped = await files.get('swagger-ui.css', true);

    expect(plain).toEqual({ contentType: 'text/css; charset=utf-8', body: 'body{color:red}', base64: false });
    expect(gunzipSync(Buffer.from(gzipped!.body, 'base64')).toString()).toBe('body{color:red}');
  });

  it('falls back to the package in node_modules (local runtime), and serves only the listed names', async () => {
    const files = new StaticFiles(SOURCE, import.meta.url);

    expect((await files.get('swagger-ui.css', false))!.body).toContain('.swagger-ui');
    expect(await files.get('swagger-ui-bundle.js', false)).toBeUndefined();
    expect(await files.get('../package.json', false)).toBeUndefined();
    expect(await files.get('toString', false)).toBeUndefined();
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['br', false],
    [undefined, false],
  ])('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
