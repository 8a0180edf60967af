import {
  DASHBOARD_PAGE_FILES,
  DASHBOARD_PAGE_HEADERS,
  dashboardHtml,
  manifestReader,
} from '../../shared/http/dashboard-app.js';
import { publicPage } from '../../shared/http/public-page.js';
import { StaticFiles } from '../../shared/http/static-files.js';

const manifest = manifestReader(new StaticFiles(DASHBOARD_PAGE_FILES, import.meta.url));

/** GET /app — the dashboard: its HTML, which loads the app's script and styles from /app/{name}. */
export const handler = publicPage(
  {
    summary: 'Open the dashboard',
    description:
      'Extra: the web app of the dashboard, signed in with a dashboard account (`/api/v1/auth/sign-in`). ' +
      'Its script and styles come from `/app/{name}`; nothing is loaded from another origin. No authentication: the ' +
      'app asks `/api/v1/auth/me` and shows the sign-in page without a session.',
    tags: ['Dashboard'],
    pages: { 200: 'The dashboard' },
  },
  [],
  async () => ({ status: 200 as const, html: dashboardHtml(await manifest()), headers: DASHBOARD_PAGE_HEADERS }),
);
