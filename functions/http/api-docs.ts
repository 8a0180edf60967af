import { API_REFERENCE_CSP, assetUrl, INIT_SCRIPT_NAME } from '../../shared/http/api-reference.js';
import { publicPage } from '../../shared/http/public-page.js';

/** The page: Swagger UI's stylesheet and script, then the start-up script; everything relative to `/api/v1/docs`. */
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Email Lifecycle API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('swagger-ui.css')}">
</head>
<body>
<div id="reference"></div>
<script src="${assetUrl('swagger-ui-bundle.js')}"></script>
<script src="${assetUrl(INIT_SCRIPT_NAME)}"></script>
</body>
</html>
`;

/** GET /api/v1/docs — the rendered API reference of /api/v1/openapi.json; no authentication, nothing from a CDN. */
export const handler = publicPage(
  {
    summary: 'Read the API reference',
    description:
      'An HTML page rendering this OpenAPI document (Swagger UI). Its scripts and styles come from ' +
      '`/api/v1/docs/assets/{file}`: nothing is loaded from another origin. No authentication.',
    tags: ['Service'],
    pages: { 200: 'The API reference page' },
  },
  [],
  async () => ({
    status: 200 as const,
    html: PAGE,
    // The page is the same for everyone and changes only with a deployment.
    headers: {
      'content-security-policy': API_REFERENCE_CSP,
      'cache-control': 'no-cache',
      'referrer-policy': 'same-origin',
    },
  }),
);
