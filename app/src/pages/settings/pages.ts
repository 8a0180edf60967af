import { ApiKeysPage } from '../api-keys/api-keys-page.js';
import type { PageEntry } from '../registry.js';
import { TopicsPage } from '../topics/topics-page.js';
import { UsersPage } from '../users/users-page.js';
import { WebhookPage } from '../webhooks/webhook-page.js';
import { WebhooksPage } from '../webhooks/webhooks-page.js';
import { SettingsPage } from './settings-page.js';

/**
 * The settings group's pages (issue 25 §1): topics, webhooks and one endpoint, settings, API keys, users. Every role
 * reads them but API keys (the API lets only `keys` list them); each page hides the changes a role cannot make.
 */
export const SETTINGS_PAGES: readonly PageEntry[] = [
  { page: 'topics', title: 'Topics', nav: true, component: TopicsPage },
  { page: 'webhooks', title: 'Webhooks', nav: true, component: WebhooksPage },
  { page: 'webhook', title: 'Webhook', nav: false, component: WebhookPage },
  { page: 'settings', title: 'Settings', nav: true, component: SettingsPage },
  { page: 'api-keys', title: 'API keys', nav: true, permission: 'keys', component: ApiKeysPage },
  { page: 'users', title: 'Users', nav: true, component: UsersPage },
];
