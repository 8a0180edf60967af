import { computed, signal } from '@preact/signals';
import {
  DASHBOARD_PATH,
  type DashboardPage,
  isDashboardPage,
  isDashboardRecordPage,
} from '../../shared/http/dashboard-pages.js';

/** A page's parameters: which record it shows (`id`) and its filters, as strings. */
export type PageParams = Record<string, string>;

type Where = DashboardPage | 'home' | 'unknown';

/**
 * The page a path names and, on a record's page, the record's id: `/app` is the overview (or sign-in without a
 * session), `/app/<page>` a page, `/app/<page>/<id>` a record's page with its id percent-encoded. Anything else (an
 * unknown page, an id on a page that shows no record, more segments, an id that does not decode) is `unknown`.
 */
function addressOf(pathname: string): { page: Where; id?: string } {
  if (pathname === DASHBOARD_PATH || pathname === `${DASHBOARD_PATH}/`) return { page: 'home' };
  if (!pathname.startsWith(`${DASHBOARD_PATH}/`)) return { page: 'unknown' };
  const [name = '', encodedId, ...more] = pathname.slice(DASHBOARD_PATH.length + 1).split('/');
  if (!isDashboardPage(name) || more.length > 0) return { page: 'unknown' };
  if (encodedId === undefined) return { page: name };
  if (encodedId === '' || !isDashboardRecordPage(name)) return { page: 'unknown' };
  try {
    return { page: name, id: decodeURIComponent(encodedId) };
  } catch {
    return { page: 'unknown' };
  }
}

/** The page in the address bar (see `addressOf`). */
export function pageOf(pathname: string): Where {
  return addressOf(pathname).page;
}

/** What an address means: its page, and the page's parameters (a record's id from its path, else from the query). */
function read(pathname: string, search: string): { page: Where; params: PageParams } {
  const { page, id } = addressOf(pathname);
  const params = Object.fromEntries(new URLSearchParams(search)) as PageParams;
  return { page, params: id === undefined ? params : { ...params, id } };
}

/** A page's URL: a record's id in the path, the other parameters in the query (empty ones left out), so every view can be bookmarked and shared. */
export function hrefOf(page: DashboardPage, params: PageParams = {}): string {
  const { id = '', ...filters } = params;
  const idInPath = isDashboardRecordPage(page) && id !== '';
  const query = new URLSearchParams(Object.entries(idInPath ? filters : params).filter(([, value]) => value !== ''));
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return `${DASHBOARD_PATH}/${page}${idInPath ? `/${encodeURIComponent(id)}` : ''}${search}`;
}

/**
 * The address bar's path and query, written as `hrefOf` writes them. A record's page opened by an older link
 * (`/app/contact?id=42`, shared and bookmarked before ids moved into the path) or with its id not percent-encoded
 * (typed by hand) is rewritten in place, without a history entry, so that the address is the one to share.
 */
function settled(): { pathname: string; search: string } {
  if (typeof window === 'undefined') return { pathname: DASHBOARD_PATH, search: '' };
  const { pathname, search, hash } = window.location;
  const { page, params } = read(pathname, search);
  if (page === 'home' || page === 'unknown' || !isDashboardRecordPage(page)) return { pathname, search };
  const href = hrefOf(page, params);
  if (href === `${pathname}${search}`) return { pathname, search };
  window.history.replaceState(window.history.state, '', `${href}${hash}`);
  return { pathname: window.location.pathname, search: window.location.search };
}

/** The address bar's path and query, kept in step by `navigate` and the back and forward buttons. */
export const location = signal<{ pathname: string; search: string }>(settled());

/** Where the app is: the page, and its parameters as plain strings. */
export const route = computed(() => read(location.value.pathname, location.value.search));

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
  const onPop = () => (location.value = settled());
  window.addEventListener('popstate', onPop);
  return () => window.removeEventListener('popstate', onPop);
}
