import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.js';
import { createNodeFunction, entryOf } from '../../infra/node-function.js';
import { API_REFERENCE_FILES } from '../../shared/http/api-reference.js';

/**
 * The API reference's files ship beside the assets function's bundle, not inside it (issue 11 keeps bundles small):
 * one real bundling of that function, as `cdk synth` does it.
 */
describe('the API reference assets function', () => {
  const route = routes.find((r) => r.handler === 'api-docs-assets')!;

  it('is declared with the package files it serves', () => {
    expect(route).toMatchObject({ method: 'GET', path: '/docs/assets/{file}', staticFiles: API_REFERENCE_FILES });
  });

  it('has the files in its asset folder, byte for byte, and a small bundle', { timeout: 120_000 }, () => {
    // Prepare
    const app = new App({ context: { '@aws-cdk/core:appMode': 'inmemory' } });
    const stack = new Stack(app, 'DocsAssets');
    createNodeFunction(stack, {
      entry: entryOf('http', route.handler),
      description: 'GET /api/v1/docs/assets/{file}',
      timeoutSeconds: 10,
      memoryMb: 512,
      environment: {},
      deletionProtection: false,
      staticFiles: route.staticFiles,
    });

    // Act
    const assembly = app.synth();

    // Assess
    const dirs = readdirSync(assembly.directory).filter((name) => name.startsWith('asset.'));
    expect(dirs).toHaveLength(1);
    const dir = path.join(assembly.directory, dirs[0]!);
    const resolve = createRequire(import.meta.url).resolve;
    for (const name of Object.keys(API_REFERENCE_FILES.files)) {
      const shipped = path.join(dir, 'assets', name);
      expect(existsSync(shipped), name).toBe(true);
      expect(readFileSync(shipped).equals(readFileSync(resolve(`${API_REFERENCE_FILES.package}/${name}`))), name).toBe(true);
    }
    const bundle = statSync(path.join(dir, 'index.mjs')).size;
    expect(bundle).toBeLessThan(250 * 1024);
    expect(readFileSync(path.join(dir, 'index.mjs'), 'utf8')).not.toContain('SwaggerUIBundle=');
  });
});
