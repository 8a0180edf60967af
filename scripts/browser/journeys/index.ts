import type { Journey } from '../harness.js';
import { contactsJourney } from './contacts.js';
import { domainsJourney } from './domains.js';
import { executionsJourney } from './executions.js';
import { journeyEditorJourney } from './journey-editor.js';
import { newClientDomainJourney } from './new-client-domain.js';
import { overviewJourney } from './overview.js';
import { segmentsBroadcastsJourney } from './segments-broadcasts.js';
import { apiKeysJourney } from './api-keys.js';
import { settingsJourney } from './settings.js';
import { templatesJourney } from './templates.js';
import { topicsJourney } from './topics.js';
import { usersJourney } from './users.js';
import { webhooksJourney } from './webhooks.js';
import { workflowsJourney } from './workflows.js';

/**
 * The dashboard's journeys, in the order a person meets them after signing in (scripts/browser/dashboard.ts runs
 * them on one browser and one runtime). A page group adds its journey here.
 */
export const JOURNEYS: readonly Journey[] = [
  overviewJourney,
  workflowsJourney,
  journeyEditorJourney,
  segmentsBroadcastsJourney,
  templatesJourney,
  contactsJourney,
  executionsJourney,
  settingsJourney,
  domainsJourney,
  newClientDomainJourney,
  apiKeysJourney,
  webhooksJourney,
  topicsJourney,
  usersJourney,
];
