import type { FunctionComponent } from 'preact';
import type { DashboardPage } from '../../../shared/http/dashboard-pages.js';
import type { Permission } from '../../../shared/domain/users/roles.js';
import type { Api } from '../api/client.js';
import type { PageParams } from '../router.js';
import type { SignedIn } from '../session.js';
import { CONTACT_PAGES } from './contacts/pages.js';
import { OverviewPage } from './overview.js';
import { SETTINGS_PAGES } from './settings/pages.js';
import { TEMPLATE_PAGES } from './templates/pages.js';
import { WORKFLOW_PAGES } from './workflows/pages.js';

/** What every page is drawn with: the API, its query (`id`, filters) and who is signed in (to hide what a role cannot do). */
export interface PageProps {
  api: Api;
  params: PageParams;
  signedIn: SignedIn;
}

/** A page of the signed-in app. */
export interface PageEntry {
  page: DashboardPage;
  /** The document title's first part, and the navigation's label when `nav` is set. */
  title: string;
  /** Listed in the navigation (a record's page, `contact`, is reached from its list instead). */
  nav: boolean;
  /** Shown only to roles with this permission (the API refuses the rest anyway); `read` when absent. */
  permission?: Permission;
  component: FunctionComponent<PageProps>;
}

/**
 * Every signed-in page, in the navigation's order. A page group (workflows, contacts, …) exports its entries from its
 * own module and is spread in here: the one place a page is declared, as functions/routes.ts is for the API.
 */
export const PAGES: readonly PageEntry[] = [
  { page: 'overview', title: 'Overview', nav: true, component: OverviewPage },
  ...WORKFLOW_PAGES,
  ...TEMPLATE_PAGES,
  ...CONTACT_PAGES,
  ...SETTINGS_PAGES,
];

export const entryOf = (page: DashboardPage): PageEntry | undefined => PAGES.find((entry) => entry.page === page);
