import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { App, Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.js';
import { createNodeFunction, entryOf } from '../../infra/node-function.js';
import { buildDashboard, type DashboardBuild } from '../../scripts/dashboard/build.js';
import { DASHBOARD_FILES, DASHBOARD_PAGE_FILES } from '../../shared/http/dashboard-app.js';

/** Dashboard budget: the whole app's JavaScript, gzipped, at most this (the Lambda bundles have theirs: bundle-size.test.ts). */
const APP_BUDGET_GZIPPED_BYTES = 150 * 1024;

let build: DashboardBuild;
beforeAll(async () => {
  build = await buildDashboard();
});

describe('the dashboard build', () => {
  it('is at most 150 KB of gzipped JavaScript, the whole app', () => {
    const js = Object.keys(build.manifest).filter((name) => name.endsWith('.js'));
    const gzipped = js.reduce(
      (sum, name) => sum + gzipSync(readFileSync(path.join(build.outDir, name)), { level: 9 }).byteLength,
      0,
    );

    console.log(`dashboard JavaScript: ${js.join(', ')}, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(js).toEqual(['app.js']);
    expect(gzipped).toBeLessThanOrEqual(APP_BUDGET_GZIPPED_BYTES);
  });

  it('names every file by its content: the same sources give the same names, and the manifest lists what is served', async () => {
    const again = await buildDashboard();

    expect(again.manifest).toEqual(build.manifest);
    expect(Object.keys(build.manifest).sort()).toEqual(['app.css', 'app.js']);
    expect(JSON.parse(readFileSync(path.join(build.outDir, 'manifest.json'), 'utf8'))).toEqual(build.manifest);
  });

  it('has no eval and nothing from another origin in its script', () => {
    const js = readFileSync(path.join(build.outDir, 'app.js'), 'utf8');

    expect(js).not.toMatch(/\beval\(|new Function\(/);
    expect(js).not.toMatch(/\b(?:import|fetch)\(\s*["'`]https?:/);
  });
});

/** The app's files ship beside its functions' bundles, never inside them: one real bundling each, as `cdk synth` does. */
describe.each([
  ['app-page', DASHBOARD_PAGE_FILES],
  ['app-files', DASHBOARD_FILES],
] as const)('the %s function', (handler, files) => {
  const route = routes.find((r) => r.handler === handler)!;

  it('is a root route shipping the built files byte for byte, with a small bundle without the app', {
    timeout: 120_000,
  }, () => {
    // Prepare
    expect(route).toMatchObject({ method: 'GET', root: true, html: true, staticFiles: files });
    const app = new App({ context: { '@aws-cdk/core:appMode': 'inmemory' } });
    const stack = new Stack(app, 'Dashboard');
    createNodeFunction(stack, {
      entry: entryOf('http', route.handler),
      description: `GET ${route.path}`,
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
    for (const name of Object.keys(files.files)) {
      const shipped = path.join(dir, 'assets', name);
      expect(existsSync(shipped), name).toBe(true);
      expect(readFileSync(shipped).equals(readFileSync(path.join(build.outDir, name))), name).toBe(true);
    }
    // Anonymous files are counted per IP (shared/domain/rate-limits/ip-limit.ts): the DynamoDB client rides along.
    expect(statSync(path.join(dir, 'index.mjs')).size).toBeLessThan(300 * 1024);
    // Preact and uPlot are the browser's, not the function's.
    expect(readFileSync(path.join(dir, 'index.mjs'), 'utf8')).not.toMatch(/uPlot|preact/i);
  });
});
