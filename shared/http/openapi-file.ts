import type { StaticPackage } from './static-files.js';

/**
 * docs/openapi.json as GET /api/v1/openapi.json serves it: a file beside the bundle (copied by infra), not bundled
 * into the JavaScript — the document grows with every route and is data, not code (the functions' bundle budget).
 * A unit test keeps the file equal to what the code generates.
 */
export const OPENAPI_DOCUMENT_FILE: StaticPackage = {
  package: '.',
  dir: 'docs',
  files: { 'openapi.json': 'application/json' },
};
