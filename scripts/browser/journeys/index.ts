import type { Journey } from '../harness.js';
import { contactsJourney } from './contacts.js';
import { executionsJourney } from './executions.js';
import { overviewJourney } from './overview.js';

/**
 * The dashboard's journeys, in the order a person meets them after signing in (scripts/browser/dashboard.ts runs
 * them on one browser and one runtime). A page group adds its journey here.
 */
export const JOURNEYS: readonly Journey[] = [overviewJourney, contactsJourney, executionsJourney];
