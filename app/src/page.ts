import { DASHBOARD_PAGE_INFO, type DashboardPage, type DashboardPageInfo } from '../../shared/http/dashboard-pages.js';
import type { Api } from './api/client.js';
import type { PageParams } from './router.js';
import type { SignedIn } from './session.js';

/** What every page is drawn with: the API, its query (`id`, filters) and who is signed in (to hide what a role cannot do). */
export interface PageProps {
  api: Api;
  params: PageParams;
  signedIn: SignedIn;
}

/** The pages behind the sign-in. */
export type SignedInPage = Exclude<DashboardPage, 'sign-in'>;

/** A page as the navigation and the document title know it (the page modules are not needed for that). */
export interface PageEntry extends DashboardPageInfo {
  page: DashboardPage;
}

export const entryOf = (page: DashboardPage): PageEntry => ({ page, ...DASHBOARD_PAGE_INFO[page] });

/** The signed-in pages, in the navigation's order. */
export const SIGNED_IN_PAGES: readonly PageEntry[] = Object.keys(DASHBOARD_PAGE_INFO)
  .filter((page): page is SignedInPage => page !== 'sign-in')
  .map(entryOf);
