import { conflict, notFound } from '../../errors.js';
import { compileIndexEntry, withEntry, withoutJourney } from './journey-index.js';
import type { JourneyIndex, JourneyRecord, JourneyStatus } from './journey-records.js';
import type { IndexChange } from './journey-store.js';
import { findOwnJourney, isSystemJourneyId } from './journey-view.js';
import { ownJourneyView, type ReadDeps } from './read-journeys.js';
import type { JourneyView } from './schemas.js';

export type LifecycleAction = 'pause' | 'resume' | 'archive';

/** Another writer changed the journey or the index between the read and the write: read again. */
const MAX_ATTEMPTS = 4;

const RULES: Record<LifecycleAction, { from: readonly JourneyStatus[]; to: JourneyStatus; refusal: string }> = {
  pause: { from: ['live'], to: 'paused', refusal: 'Only a live journey can be paused' },
  resume: { from: ['paused'], to: 'live', refusal: 'Only a paused journey can be resumed' },
  archive: { from: ['draft', 'live', 'paused'], to: 'archived', refusal: 'The journey is archived already' },
};

/** 409 `state`: a system journey runs while its workflow is enabled; settings' enabled_workflows starts and stops it. */
export function refuseSystemJourney(id: number): void {
  if (isSystemJourneyId(id)) {
    throw conflict(
      'state',
      'id',
      `Journey ${id} is a system journey: enable or disable workflow ${id} with PATCH /client/settings (enabled_workflows)`,
    );
  }
}

/** The index after the journey moves to `to`: its entry's status changed, or the entry gone when archived. */
async function indexChangeOf(
  deps: ReadDeps,
  journey: JourneyRecord,
  index: JourneyIndex,
  to: JourneyStatus,
): Promise<IndexChange | undefined> {
  if (to === 'archived') {
    return index.journeys.some((j) => j.id === journey.id)
      ? { readVersion: index.version, journeys: withoutJourney(index.journeys, journey.id) }
      : undefined;
  }
  const moved = { ...journey, status: to };
  const present = index.journeys.find((j) => j.id === journey.id);
  // An entry missing from the index (it should not be) is compiled again from the live version.
  const version = present
    ? undefined
    : await deps.journeys.version(journey.client_id, journey.id, journey.live_version!);
  const entry = present ? { ...present, status: to as 'live' | 'paused' } : compileIndexEntry(moved, version!);
  return { readVersion: index.version, journeys: withEntry(index.journeys, entry) };
}

/**
 * POST /client/journeys/{id}/pause | resume | archive. Pause: no new runs (runs hold at their next step); resume: new
 * runs again; archive: no new runs, runs end at their next step, and the journey no longer counts against the plan's
 * limit. The journey, its summary and the index change in one transaction conditioned on what was read. Reads: the
 * journey with the index (one BatchGet).
 */
export async function changeJourneyStatus(
  deps: ReadDeps,
  clientId: number,
  id: number,
  action: LifecycleAction,
): Promise<JourneyView> {
  refuseSystemJourney(id);
  const rule = RULES[action];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const { journey, index } = await deps.journeys.getWithIndex(clientId, id);
    if (!journey) throw notFound('id', 'Journey not found');
    if (!rule.from.includes(journey.status)) throw conflict('state', 'id', `${rule.refusal}; it is ${journey.status}`);
    const at = deps.clock.now().toISOString();
    const indexChange = await indexChangeOf(deps, journey, index, rule.to);
    const outcome = await deps.journeys.changeStatus({
      journey,
      from: journey.status,
      to: rule.to,
      ...(indexChange ? { index: indexChange } : {}),
      at,
    });
    if (outcome === 'done') return ownJourneyView(deps, { ...journey, status: rule.to, updated_at: at });
  }
  throw conflict('state', 'id', 'The journey changed concurrently; retry');
}

/** DELETE /client/journeys/{id}: only a journey never published (409 `state` otherwise: archive it). */
export async function deleteJourney(
  deps: Pick<ReadDeps, 'journeys'>,
  clientId: number,
  id: number,
): Promise<{ id: number; name: string; deleted: true }> {
  refuseSystemJourney(id);
  const journey = await findOwnJourney(deps, clientId, id);
  if (journey.live_version !== undefined || journey.status !== 'draft') {
    throw conflict('state', 'id', 'Only a journey never published can be deleted; archive it instead');
  }
  if ((await deps.journeys.delete(journey)) === 'stale') {
    throw conflict('state', 'id', 'The journey changed concurrently; read it again');
  }
  return { id, name: journey.name, deleted: true };
}
