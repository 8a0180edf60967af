import * as z from '../../shared/validation/zod.js';
import {
  DASHBOARD_NOT_FOUND,
  DASHBOARD_NOT_FOUND_HEADERS,
  DASHBOARD_PAGE_FILES,
  DASHBOARD_PAGE_HEADERS,
  dashboardHtml,
  manifestReader,
} from '../../shared/http/dashboard-app.js';
import { DASHBOARD_RECORD_PAGES, isDashboardRecordPage } from '../../shared/http/dashboard-pages.js';
import { publicPage } from '../../shared/http/public-page.js';
import { StaticFiles } from '../../shared/http/static-files.js';
import { MAX_PATH_ID_LENGTH } from '../../shared/validation/string-bounds.js';

const manifest = manifestReader(new StaticFiles(DASHBOARD_PAGE_FILES, import.meta.url));

/** The longest page name the document states; every page's name is far shorter. */
const MAX_PAGE_NAME_LENGTH = 100;

/**
 * GET /app/{name}/{id} — a record's page of the dashboard (`/app/contact/42`): the app's HTML, which reads the page
 * and the record from the path. The id is not looked up: the page asks the API, which answers for the caller's client.
 */
export const handler = publicPage(
  {
    summary: "Open a record's page of the dashboard",
    description:
      `A record's page of the dashboard (${DASHBOARD_RECORD_PAGES.map((page) => `\`${page}\``).join(', ')}) with the ` +
      "record's id, percent-encoded (`/app/contact/42`, `/app/contact/ann%40example.com`): the app's HTML, as `/app` " +
      "does; the page's filters ride in the query (`/app/webhook/5?after=…`). The older form, the id in the query " +
      '(`/app/contact?id=42`), still opens the record and the app shows it in this form. Any other page, or an id ' +
      `longer than ${MAX_PATH_ID_LENGTH} characters, is the 404 page.`,
    tags: ['Dashboard'],
    // A public page declares no 422: a name or id past its bound is the 404 page.
    params: z.object({
      name: z.string().check(
        z.meta({
          maxLength: MAX_PAGE_NAME_LENGTH,
          description: "A record's page of the app (any other name: 404)",
          examples: ['contact'],
        }),
      ),
      id: z.string().check(
        z.meta({
          maxLength: MAX_PATH_ID_LENGTH,
          description: `The record's id, percent-encoded (longer than ${MAX_PATH_ID_LENGTH} characters: 404)`,
          examples: ['42'],
        }),
      ),
    }),
    pages: { 200: 'The dashboard', 404: 'No such page: an HTML page' },
  },
  [],
  async ({ params }) => {
    if (!isDashboardRecordPage(params.name) || params.id === '' || params.id.length > MAX_PATH_ID_LENGTH) {
      return { status: 404 as const, html: DASHBOARD_NOT_FOUND, headers: DASHBOARD_NOT_FOUND_HEADERS };
    }
    return { status: 200 as const, html: dashboardHtml(await manifest()), headers: DASHBOARD_PAGE_HEADERS };
  },
);
