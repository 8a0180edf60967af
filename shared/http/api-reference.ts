import swaggerUi from 'swagger-ui-dist/package.json' with { type: 'json' };
import type { StaticPackage } from './static-files.js';

/**
 * The API reference page (`GET /api/v1/docs`): Swagger UI (swagger-ui-dist, no runtime dependencies) rendering
 * `/api/v1/openapi.json`, every asset served by the service itself. The route table ships these files beside the
 * assets function's bundle (functions/routes.ts `staticFiles`); the page's own start-up script is `INIT_SCRIPT`.
 */
export const API_REFERENCE_FILES: StaticPackage = {
  package: 'swagger-ui-dist',
  files: {
    'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
    'swagger-ui.css': 'text/css; charset=utf-8',
  },
};

/** The renderer's version (package.json pins it) in the assets' URLs: a new one changes them, so they are cached for good. */
export const API_REFERENCE_VERSION: string = swaggerUi.version;

/** The page's script, its own asset so the page needs no inline script (CSP `script-src 'self'`). */
export const INIT_SCRIPT_NAME = 'init.js';
export const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('openapi.json', document.baseURI).href,
    dom_id: '#reference',
    deepLinking: true,
    // No call to the public validator badge service: nothing leaves the origin.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
  });
});
`;

/** Where the page finds its assets, relative to `/api/v1/docs`. */
export const assetUrl = (name: string): string => `docs/assets/${name}?v=${API_REFERENCE_VERSION}`;

/** Same-origin only; Swagger UI sets styles from script and draws icons as data: URIs. */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
