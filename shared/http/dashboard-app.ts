import { DASHBOARD_PATH } from './dashboard-pages.js';
import type { StaticFiles, StaticPackage } from './static-files.js';

/**
 * The dashboard: a single-page app built by scripts/dashboard/build.ts into app/dist and served at /app by three
 * routes (functions/routes.ts): `GET /app`, `GET /app/{name}`, where a name is one of the app's pages (its HTML) or a
 * built file under its content-hashed name (gzip, cached for good), and `GET /app/{name}/{id}`, a record's page (its
 * HTML). The files ship beside the functions' bundles like the API reference's (shared/http/static-files.ts).
 */

/** The files the build writes, by their plain names (on disk and in the route table), with their media types. */
export const DASHBOARD_ASSETS = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
} as const;

export type DashboardAsset = keyof typeof DASHBOARD_ASSETS;

/** manifest.json: each built file's plain name → the content-hashed name it is served under (`app.3f9c01d2ab44.js`). */
export type DashboardManifest = Record<DashboardAsset, string>;

const MANIFEST = 'manifest.json';

/** What the assets function ships: the built files and the manifest. */
export const DASHBOARD_FILES: StaticPackage = {
  package: '.',
  dir: 'app/dist',
  files: { ...DASHBOARD_ASSETS, [MANIFEST]: 'application/json' },
};

/** What the page function ships: only the manifest, to name the files in the HTML. */
export const DASHBOARD_PAGE_FILES: StaticPackage = {
  package: '.',
  dir: 'app/dist',
  files: { [MANIFEST]: 'application/json' },
};

/**
 * Same origin only, no inline script or style, no eval. Styles set from script through the CSSOM (uPlot's sizes,
 * Preact's style props) are not inline styles in CSP's sense and need no `unsafe-inline`.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // data: for the empty icon (so the browser asks for no /favicon.ico); never another origin.
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  // The e-mail documents it frames (sandboxed, each with a CSP of its own: shared/http/email-document.ts).
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of the HTML: it names this deployment's files, so it is always revalidated. */
export const DASHBOARD_PAGE_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'cache-control': 'no-cache',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

/** The built files' URLs carry their content hash: a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The app's one HTML document, for every page; absolute URLs, since it is served at every depth below /app. */
export function dashboardHtml(manifest: DashboardManifest): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Email Lifecycle dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DASHBOARD_PATH}/${manifest['app.css']}">
<script type="module" src="${DASHBOARD_PATH}/${manifest['app.js']}"></script>
</head>
<body>
<div id="app"><noscript>The dashboard needs JavaScript.</noscript></div>
</body>
</html>
`;
}

/** What a dashboard URL that names no page or file answers (404), with a way back in. */
export const DASHBOARD_NOT_FOUND = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><main><h1>Not found</h1><p>No such page of the dashboard. <a href="${DASHBOARD_PATH}">Open the dashboard</a></p></main></body></html>
`;

/** The 404's headers: nothing to keep, since the next build may add the page. */
export const DASHBOARD_NOT_FOUND_HEADERS = { 'cache-control': 'no-store' };

/** Reads the manifest once per container (from beside the bundle, or app/dist in the source tree). */
export function manifestReader(files: StaticFiles): () => Promise<DashboardManifest> {
  let manifest: Promise<DashboardManifest> | undefined;
  return () => {
    manifest ??= files.text(MANIFEST).then((text) => {
      if (text === undefined) throw new Error('The dashboard has no manifest.json');
      return JSON.parse(text) as DashboardManifest;
    });
    manifest.catch(() => (manifest = undefined));
    return manifest;
  };
}

/** The plain name of a content-hashed file name the manifest lists, or undefined. */
export function assetOf(manifest: DashboardManifest, hashedName: string): DashboardAsset | undefined {
  return (Object.keys(manifest) as DashboardAsset[]).find((name) => manifest[name] === hashedName);
}
