/**
 * The dashboard's pages below /app (issue 25), read by the server (which answers their URLs with the app's HTML and
 * anything else 404) and by the app (which draws them): no import, so the browser bundle can take it.
 *
 * A page is one path segment; a record's page names the record in the query (`/app/contact?id=42`), so the server's
 * two routes answer every deep link (docs/decisions.md, "Dashboard deep links").
 */
export const DASHBOARD_PATH = '/app';

export const DASHBOARD_PAGES = [
  'sign-in',
  'overview',
  'workflows',
  'workflow',
  'templates',
  'template',
  'contacts',
  'contact',
  'sent-email',
  'executions',
  'topics',
  'webhooks',
  'webhook',
  'settings',
  'api-keys',
  'users',
] as const;
export type DashboardPage = (typeof DASHBOARD_PAGES)[number];

export const isDashboardPage = (name: string): name is DashboardPage => (DASHBOARD_PAGES as readonly string[]).includes(name);
