import * as z from '../../shared/validation/zod.js';
import {
  assetOf,
  DASHBOARD_FILES,
  DASHBOARD_NOT_FOUND,
  DASHBOARD_NOT_FOUND_HEADERS,
  DASHBOARD_PAGE_HEADERS,
  dashboardHtml,
  IMMUTABLE,
  manifestReader,
} from '../../shared/http/dashboard-app.js';
import { DASHBOARD_PAGES, isDashboardPage } from '../../shared/http/dashboard-pages.js';
import { publicPage } from '../../shared/http/public-page.js';
import { acceptsGzip, StaticFiles } from '../../shared/http/static-files.js';

const files = new StaticFiles(DASHBOARD_FILES, import.meta.url);
const manifest = manifestReader(files);

/** GET /app/{name} — a page of the dashboard (its HTML), or one of its built files under its content-hashed name. */
export const handler = publicPage(
  {
    summary: 'Get a page or a file of the dashboard',
    description:
      `Extra: a page of the dashboard (${DASHBOARD_PAGES.map((page) => `\`${page}\``).join(', ')}) answers ` +
      "the app's HTML, as `/app` does (a record's page names its record in the path: `/app/{name}/{id}`). A file of the app under its content-hashed name (`app.<hash>.js`, " +
      '`app.<hash>.css`, as the HTML names them) answers the file, gzipped when the request accepts it and cached ' +
      'for a year (a new build is a new name). Anything else is 404.',
    tags: ['Dashboard'],
    // No page or file is named with more than 100 characters: a longer name is the 404 page (a page declares no 422).
    params: z.object({
      name: z.string().check(
        z.meta({
          maxLength: 100,
          description: 'A page of the app, or a file name the HTML names (longer than 100 characters: 404)',
          examples: ['overview'],
        }),
      ),
    }),
    pages: { 200: 'A page (HTML) or the file', 404: 'No such page or file: an HTML page' },
    contentTypes: ['text/html', 'text/javascript', 'text/css'],
  },
  [],
  async ({ params }, { event }) => {
    const built = await manifest();
    if (isDashboardPage(params.name))
      return { status: 200 as const, html: dashboardHtml(built), headers: DASHBOARD_PAGE_HEADERS };
    const asset = assetOf(built, params.name);
    const file = asset ? await files.get(asset, acceptsGzip(event.headers['accept-encoding'])) : undefined;
    if (!file) return { status: 404 as const, html: DASHBOARD_NOT_FOUND, headers: DASHBOARD_NOT_FOUND_HEADERS };
    return {
      status: 200 as const,
      file,
      headers: {
        'cache-control': IMMUTABLE,
        vary: 'Accept-Encoding',
        'x-content-type-options': 'nosniff',
        ...(file.base64 ? { 'content-encoding': 'gzip' } : {}),
      },
    };
  },
);
