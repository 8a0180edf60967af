import { computed, signal } from '@preact/signals';
import { DASHBOARD_PATH, type DashboardPage, isDashboardPage } from '../../shared/http/dashboard-pages.js';

/** A page's query: which record it shows (`id`) and its filters, as strings. */
export type PageParams = Record<string, string>;

/** The page in the address bar: `/app` is the overview (or sign-in without a session), `/app/<page>` the rest. */
export function pageOf(pathname: string): DashboardPage | 'home' | 'unknown' {
  if (pathname === DASHBOARD_PATH || pathname === `${DASHBOARD_PATH}/`) return 'home';
  const name = pathname.startsWith(`${DASHBOARD_PATH}/`) ? pathname.slice(DASHBOARD_PATH.length + 1) : '';
  return isDashboardPage(name) ? name : 'unknown';
}

const here = () => (typeof window === 'undefined' ? { pathname: DASHBOARD_PATH, search: '' } : window.location);

/** The address bar's path and query, kept in step by `navigate` and the back and forward buttons. */
export const location = signal<{ pathname: string; search: string }>({ pathname: here().pathname, search: here().search });

/** Where the app is: the page, and its query as plain strings. */
export const route = computed(() => ({
  page: pageOf(location.value.pathname),
  params: Object.fromEntries(new URLSearchParams(location.value.search)) as PageParams,
}));

/** A page's URL, its parameters in the query (empty ones left out), so every view can be bookmarked and shared. */
export function hrefOf(page: DashboardPage, params: PageParams = {}): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== ''));
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return `${DASHBOARD_PATH}/${page}${search}`;
}

/** Moves to a page of the app without a reload (the server answers the same HTML at every page's URL). */
export function navigate(page: DashboardPage, params: PageParams = {}, options: { replace?: boolean } = {}): void {
  const href = hrefOf(page, params);
  const current = `${window.location.pathname}${window.location.search}`;
  if (current !== href) {
    if (options.replace) window.history.replaceState(null, '', href);
    else window.history.pushState(null, '', href);
  }
  const url = new URL(href, window.location.origin);
  location.value = { pathname: url.pathname, search: url.search };
}

/** Back and forward buttons. */
export function followHistory(): () => void {
  const onPop = () => (location.value = { pathname: window.location.pathname, search: window.location.search });
  window.addEventListener('popstate', onPop);
  return () => window.removeEventListener('popstate', onPop);
}
