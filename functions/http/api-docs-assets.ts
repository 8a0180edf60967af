import * as z from '../../shared/validation/zod.js';
import { API_REFERENCE_FILES, INIT_SCRIPT, INIT_SCRIPT_NAME } from '../../shared/http/api-reference.js';
import { publicPage } from '../../shared/http/public-page.js';
import { acceptsGzip, StaticFiles } from '../../shared/http/static-files.js';

const files = new StaticFiles(API_REFERENCE_FILES, import.meta.url);

/** A year: the URLs carry the renderer's version, so a new one is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** GET /api/v1/docs/assets/{file} — the reference page's script and styles (swagger-ui-dist, shipped beside the bundle). */
export const handler = publicPage(
  {
    summary: 'Get a file of the API reference page',
    description:
      'The scripts and styles `/api/v1/docs` loads: `swagger-ui-bundle.js`, `swagger-ui.css` and `init.js`. Gzipped when ' +
      'the request accepts it; cached for a year (the URLs carry the renderer version). Any other name is 404.',
    tags: ['Service'],
    // No file is named with more than 100 characters: a longer name is the 404 like any unknown one (a page declares no 422).
    params: z.object({
      file: z.string().check(
        z.meta({
          maxLength: 100,
          description: 'The file name (longer than 100 characters: 404)',
          examples: ['swagger-ui.css'],
        }),
      ),
    }),
    pages: { 200: 'The file', 404: 'No such file' },
    contentTypes: ['text/javascript', 'text/css', 'text/plain'],
  },
  [],
  async ({ params }, { event }) => {
    const gzip = acceptsGzip(event.headers['accept-encoding']);
    if (params.file === INIT_SCRIPT_NAME) {
      return {
        status: 200 as const,
        file: { contentType: 'text/javascript; charset=utf-8', body: INIT_SCRIPT, base64: false },
        headers: { 'cache-control': IMMUTABLE },
      };
    }
    const file = await files.get(params.file, gzip);
    if (!file) {
      return {
        status: 404 as const,
        file: { contentType: 'text/plain; charset=utf-8', body: 'No such file\n', base64: false },
        headers: { 'cache-control': 'no-store' },
      };
    }
    return {
      status: 200 as const,
      file,
      headers: {
        'cache-control': IMMUTABLE,
        vary: 'Accept-Encoding',
        ...(file.base64 ? { 'content-encoding': 'gzip' } : {}),
      },
    };
  },
);
