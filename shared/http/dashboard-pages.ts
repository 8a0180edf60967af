/**
 * The dashboard's pages below /app (issue 25), read by the server (which answers their URLs with the app's HTML and
 * anything else 404) and by the app (which draws them): no import, so the browser bundle can take it.
 */
export const DASHBOARD_PATH = '/app';

export const DASHBOARD_PAGES = ['sign-in', 'overview'] as const;
export type DashboardPage = (typeof DASHBOARD_PAGES)[number];

export const isDashboardPage = (name: string): name is DashboardPage => (DASHBOARD_PAGES as readonly string[]).includes(name);
