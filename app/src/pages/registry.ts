import type { FunctionComponent } from 'preact';
import type { PageProps, SignedInPage } from '../page.js';
import { ApiKeysPage } from './api-keys/api-keys-page.js';
import { BroadcastPage } from './broadcasts/broadcast-page.js';
import { BroadcastsPage } from './broadcasts/broadcasts-page.js';
import { ContactPage } from './contacts/contact-page.js';
import { ContactsPage } from './contacts/contacts-page.js';
import { DomainPage } from './domains/domain-page.js';
import { DomainsPage } from './domains/domains-page.js';
import { ExecutionsPage } from './executions/executions-page.js';
import { JourneyPage } from './journeys/journey-page.js';
import { JourneysPage } from './journeys/journeys-page.js';
import { OverviewPage } from './overview.js';
import { SegmentPage } from './segments/segment-page.js';
import { SegmentsPage } from './segments/segments-page.js';
import { SentEmailPage } from './sent-email/sent-email-page.js';
import { SettingsPage } from './settings/settings-page.js';
import { TemplatePage } from './templates/template-page.js';
import { TemplatesPage } from './templates/templates-page.js';
import { TopicsPage } from './topics/topics-page.js';
import { UsersPage } from './users/users-page.js';
import { WebhookPage } from './webhooks/webhook-page.js';
import { WebhooksPage } from './webhooks/webhooks-page.js';
import { WorkflowPage } from './workflows/workflow-page.js';
import { WorkflowsPage } from './workflows/workflows-page.js';

/**
 * What each signed-in page draws. Its title, place in the navigation and permission are declared once, with its name,
 * in shared/http/dashboard-pages.ts; a page missing here or unknown there is a compile error.
 */
export const PAGE_COMPONENTS: { readonly [page in SignedInPage]: FunctionComponent<PageProps> } = {
  overview: OverviewPage,
  workflows: WorkflowsPage,
  workflow: WorkflowPage,
  journeys: JourneysPage,
  journey: JourneyPage,
  segments: SegmentsPage,
  segment: SegmentPage,
  broadcasts: BroadcastsPage,
  broadcast: BroadcastPage,
  templates: TemplatesPage,
  template: TemplatePage,
  contacts: ContactsPage,
  contact: ContactPage,
  'sent-email': SentEmailPage,
  executions: ExecutionsPage,
  topics: TopicsPage,
  webhooks: WebhooksPage,
  webhook: WebhookPage,
  settings: SettingsPage,
  domains: DomainsPage,
  domain: DomainPage,
  'api-keys': ApiKeysPage,
  users: UsersPage,
};
