import type { Clock } from '../../platform.js';
import { MAX_JOURNEYS_BY_TIER } from '../../public/journey-rules.js';
import { effectiveLimits, planOf } from '../settings/effective-settings.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsBundle, SettingsStore } from '../settings/settings-store.js';
import { WORKFLOWS } from '../workflows/catalog.js';
import type { WorkflowCustomizationStore } from '../workflows/customization-store.js';
import { validateJourney } from './definition/validate-journey.js';
import { journeyRefs, type RefsDeps } from './journey-refs.js';
import type { JourneyRecord } from './journey-records.js';
import type { JourneyStore } from './journey-store.js';
import {
  findOwnJourney,
  isSystemJourneyId,
  journeyView,
  ownListItem,
  systemJourneyView,
  systemListItem,
  systemWorkflowOf,
  type JourneyListItemView,
} from './journey-view.js';
import type { JourneyView } from './schemas.js';

export interface ReadDeps extends RefsDeps {
  clock: Clock;
  journeys: JourneyStore;
  settings: SettingsStore;
  customizations: WorkflowCustomizationStore;
}

/** The workflows enabled for the client (its enabled_workflows, or its plan's default set). */
export function enabledWorkflowsOf(bundle: SettingsBundle): number[] {
  return effectiveLimits(bundle.settings, planOf(bundle.client?.plan ?? '')).enabledWorkflows;
}

/** Journeys of its own (not archived) the client's plan allows. */
export const maxJourneysOf = (bundle: SettingsBundle): number =>
  MAX_JOURNEYS_BY_TIER[planOf(bundle.client?.plan ?? '').tier];

/**
 * GET /client/journeys: the 8 system journeys (live while their workflow is enabled) then the client's own by id,
 * archived ones included. Reads in one wave: the settings bundle (plan, enabled workflows) and the count item, which
 * holds every journey's summary.
 */
export async function listJourneys(
  deps: Pick<ReadDeps, 'clock' | 'journeys' | 'settings'>,
  clientId: number,
): Promise<{ journeys: JourneyListItemView[]; meta: { total: number; max_journeys: number } }> {
  const [bundle, count] = await Promise.all([
    deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
    deps.journeys.list(clientId),
  ]);
  const enabled = new Set(enabledWorkflowsOf(bundle));
  const journeys = [...WORKFLOWS.map((w) => systemListItem(w, enabled.has(w.id))), ...count.journeys.map(ownListItem)];
  return { journeys, meta: { total: journeys.length, max_journeys: maxJourneysOf(bundle) } };
}

/** The draft's issues and the live definition of one of the client's journeys (one parallel wave). */
export async function ownJourneyView(deps: ReadDeps, journey: JourneyRecord): Promise<JourneyView> {
  const [refs, live] = await Promise.all([
    journeyRefs(deps, journey.client_id, [journey.draft]),
    journey.live_version === undefined
      ? undefined
      : deps.journeys.version(journey.client_id, journey.id, journey.live_version),
  ]);
  return journeyView(journey, validateJourney(journey.draft, refs).issues, live?.definition);
}

/**
 * GET /client/journeys/{id}. A system journey (1–8) is derived from the catalog and the client's customization
 * (settings and customization read in one wave). One of the client's: the journey, then its live version and the
 * references its draft names in one wave. Another client's journey is 404.
 */
export async function getJourney(deps: ReadDeps, clientId: number, id: number): Promise<JourneyView> {
  if (isSystemJourneyId(id)) return systemView(deps, clientId, id);
  return ownJourneyView(deps, await findOwnJourney(deps, clientId, id));
}

async function systemView(deps: ReadDeps, clientId: number, id: number): Promise<JourneyView> {
  const workflow = systemWorkflowOf(id);
  const [bundle, customization] = await Promise.all([
    deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
    deps.customizations.get(clientId, id),
  ]);
  return systemJourneyView(workflow, customization, enabledWorkflowsOf(bundle).includes(id));
}
