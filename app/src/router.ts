import { signal } from '@preact/signals';
import { DASHBOARD_PATH, type DashboardPage, isDashboardPage } from '../../shared/http/dashboard-pages.js';

/** The page in the address bar: `/app` is the overview (or sign-in without a session), `/app/<page>` the rest. */
export function pageOf(pathname: string): DashboardPage | 'home' | 'unknown' {
  if (pathname === DASHBOARD_PATH || pathname === `${DASHBOARD_PATH}/`) return 'home';
  const name = pathname.startsWith(`${DASHBOARD_PATH}/`) ? pathname.slice(DASHBOARD_PATH.length + 1) : '';
  return isDashboardPage(name) ? name : 'unknown';
}

export const pathname = signal(typeof window === 'undefined' ? DASHBOARD_PATH : window.location.pathname);

export const pathOf = (page: DashboardPage): string => `${DASHBOARD_PATH}/${page}`;

/** Moves to a page of the app without a reload (the server answers the same HTML at every page's URL). */
export function navigate(page: DashboardPage, options: { replace?: boolean } = {}): void {
  const path = pathOf(page);
  if (window.location.pathname !== path) {
    if (options.replace) window.history.replaceState(null, '', path);
    else window.history.pushState(null, '', path);
  }
  pathname.value = path;
}

/** Back and forward buttons. */
export function followHistory(): () => void {
  const onPop = () => (pathname.value = window.location.pathname);
  window.addEventListener('popstate', onPop);
  return () => window.removeEventListener('popstate', onPop);
}
