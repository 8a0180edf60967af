import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '../../functions/routes.js';
import { createNodeFunction, entryOf } from '../../infra/node-function.js';
import { API_REFERENCE_FILES } from '../../shared/http/api-reference.js';
import { OPENAPI_DOCUMENT_FILE } from '../../shared/http/openapi-file.js';
import { fileURLToPath } from 'node:url';

/** The asset folder of one real bundling of a route's function with its static files, as `cdk synth` does it. */
function bundled(route: RouteDefinition, stackName: string, description: string): string {
  const app = new App({ context: { '@aws-cdk/core:appMode': 'inmemory' } });
  const stack = new Stack(app, stackName);
  createNodeFunction(stack, {
    entry: entryOf('http', route.handler),
    description,
    timeoutSeconds: 10,
    memoryMb: 512,
    environment: {},
    deletionProtection: false,
    staticFiles: route.staticFiles,
  });
  const assembly = app.synth();
  const dirs = readdirSync(assembly.directory).filter((name) => name.startsWith('asset.'));
  expect(dirs).toHaveLength(1);
  return path.join(assembly.directory, dirs[0]!);
}
/**
 * The API reference's files ship beside the assets function's bundle, not inside it (bundles stay small):
 * one real bundling of that function, as `cdk synth` does it.
 */
describe('the API reference assets function', () => {
  const route = routes.find((r) => r.handler === 'api-docs-assets')!;

  it('is declared with the package files it serves', () => {
    expect(route).toMatchObject({ method: 'GET', path: '/docs/assets/{file}', staticFiles: API_REFERENCE_FILES });
  });

  it('has the files in its asset folder, byte for byte, and a small bundle', { timeout: 120_000 }, () => {
    // Act
    const dir = bundled(route, 'DocsAssets', 'GET /api/v1/docs/assets/{file}');

    // Assess
    const resolve = createRequire(import.meta.url).resolve;
    for (const name of Object.keys(API_REFERENCE_FILES.files)) {
      const shipped = path.join(dir, 'assets', name);
      expect(existsSync(shipped), name).toBe(true);
      expect(readFileSync(shipped).equals(readFileSync(resolve(`${API_REFERENCE_FILES.package}/${name}`))), name).toBe(
        true,
      );
    }
    const bundle = statSync(path.join(dir, 'index.mjs')).size;
    // Anonymous files are counted per IP (shared/domain/rate-limits/ip-limit.ts): the DynamoDB client rides along.
    expect(bundle).toBeLessThan(300 * 1024);
    expect(readFileSync(path.join(dir, 'index.mjs'), 'utf8')).not.toContain('SwaggerUIBundle=');
  });
});

/** docs/openapi.json ships beside the OpenAPI route's bundle, not inside it: one real bundling, as `cdk synth` does. */
describe('the OpenAPI document function', () => {
  const route = routes.find((r) => r.handler === 'openapi')!;

  it('ships docs/openapi.json byte for byte in its asset folder, and a bundle without the document', {
    timeout: 120_000,
  }, () => {
    // Act
    const dir = bundled(route, 'OpenApiDocument', 'GET /api/v1/openapi.json');

    // Assess
    expect(route.staticFiles).toEqual(OPENAPI_DOCUMENT_FILE);
    const shipped = path.join(dir, 'assets', 'openapi.json');
    const source = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
    expect(readFileSync(shipped).equals(readFileSync(source))).toBe(true);
    expect(readFileSync(path.join(dir, 'index.mjs'), 'utf8')).not.toContain('"operationId"');
  });
});
