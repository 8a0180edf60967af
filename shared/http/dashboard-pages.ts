/**
 * The dashboard's pages below /app, read by the server (which answers their URLs with the app's HTML and
 * anything else 404) and by the app (which draws them): no import, so the browser bundle can take it.
 *
 * A page is one path segment (`/app/contacts`); a record's page adds the record's id, percent-encoded, as a second
 * one (`/app/contact/42`, `/app/contact/ann%40example.com`). The page's filters ride in the query. The older form with
 * the record in the query (`/app/contact?id=42`) still opens the record: links to it were shared and bookmarked.
 */
export const DASHBOARD_PATH = '/app';

/** What the navigation shows of a page: its title, whether it is listed, and the permission it needs (`read` when absent). */
export interface DashboardPageInfo {
  /** The document title's first part, and the navigation's label when `nav` is set. */
  readonly title: string;
  /** Listed in the navigation (a record's page, `contact`, is reached from its list instead). */
  readonly nav: boolean;
  /** Shown only to roles with this permission (the API refuses the rest anyway). */
  readonly permission?: 'keys';
}

/** Every page, in the navigation's order: the one place a page is declared (the app adds its component, by this key). */
export const DASHBOARD_PAGE_INFO = {
  'sign-in': { title: 'Sign in', nav: false },
  overview: { title: 'Overview', nav: true },
  workflows: { title: 'Workflows', nav: true },
  workflow: { title: 'Workflow', nav: false },
  journeys: { title: 'Journeys', nav: true },
  journey: { title: 'Journey', nav: false },
  segments: { title: 'Segments', nav: true },
  segment: { title: 'Segment', nav: false },
  broadcasts: { title: 'Broadcasts', nav: true },
  broadcast: { title: 'Broadcast', nav: false },
  templates: { title: 'Templates', nav: true },
  template: { title: 'Template', nav: false },
  contacts: { title: 'Contacts', nav: true },
  contact: { title: 'Contact', nav: false },
  'sent-email': { title: 'Sent e-mail', nav: false },
  executions: { title: 'Executions', nav: true },
  topics: { title: 'Topics', nav: true },
  webhooks: { title: 'Webhooks', nav: true },
  webhook: { title: 'Webhook', nav: false },
  settings: { title: 'Settings', nav: true },
  domains: { title: 'Domains', nav: true },
  domain: { title: 'Domain', nav: false },
  'api-keys': { title: 'API keys', nav: true, permission: 'keys' },
  users: { title: 'Users', nav: true },
} as const satisfies Record<string, DashboardPageInfo>;
export type DashboardPage = keyof typeof DASHBOARD_PAGE_INFO;

export const DASHBOARD_PAGES = Object.keys(DASHBOARD_PAGE_INFO) as readonly DashboardPage[];

export const isDashboardPage = (name: string): name is DashboardPage => Object.hasOwn(DASHBOARD_PAGE_INFO, name);

/** The pages that show one record, named by the path segment after the page's (`/app/<page>/<id>`). */
export const DASHBOARD_RECORD_PAGES = [
  'workflow',
  'journey',
  'segment',
  'broadcast',
  'template',
  'contact',
  'sent-email',
  'webhook',
  'domain',
] as const satisfies readonly DashboardPage[];
export type DashboardRecordPage = (typeof DASHBOARD_RECORD_PAGES)[number];

export const isDashboardRecordPage = (name: string): name is DashboardRecordPage =>
  (DASHBOARD_RECORD_PAGES as readonly string[]).includes(name);
