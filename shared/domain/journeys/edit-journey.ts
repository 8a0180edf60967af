import type { StatsStore } from '../stats/stats-store.js';
import { isDeepStrictEqual } from 'node:util';
import { conflict } from '../../errors.js';
import type { JourneyIssue, JourneyStep } from './definition/types.js';
import { validateJourney } from './definition/validate-journey.js';
import { assertDraftSize } from './create-journey.js';
import { journeyRefs } from './journey-refs.js';
import type { JourneyRecord } from './journey-records.js';
import { findOwnJourney, refuseSystemField } from './journey-ownership.js';
import { ownJourneyView, type ReadDeps } from './read-journeys.js';
import type { DraftBody, JourneyPatch, JourneyView } from './schemas.js';

/** 422 `read_only` at `key`: a system journey is changed through its workflow's customization, never written here. */
export { refuseSystemField };

const refuseArchived = (journey: JourneyRecord): void => {
  if (journey.status === 'archived') throw conflict('state', 'id', 'The journey is archived');
};

/** PATCH /client/journeys/{id}: name and description (the list's summary with them). */
export async function updateJourney(
  deps: ReadDeps,
  clientId: number,
  id: number,
  patch: JourneyPatch,
): Promise<JourneyView> {
  refuseSystemField(id, patch.description !== undefined && patch.name === undefined ? 'description' : 'name');
  const journey = await findOwnJourney(deps, clientId, id);
  const at = deps.clock.now().toISOString();
  const next: JourneyRecord = {
    ...journey,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    updated_at: at,
  };
  if ((await deps.journeys.rename(next, at)) === 'stale') throw conflict('state', 'id', 'The journey was deleted');
  return ownJourneyView(deps, next);
}

/**
 * PUT /client/journeys/{id}/draft: saves any JSON object up to the size limit, complete or not, if the draft is still
 * at `draft_version` (409 `state` otherwise: another save came first); answers the new draft_version and the issues
 * that keep it from publishing. Reads: the journey; one conditional write; the references the draft names.
 */
export async function saveDraft(
  deps: ReadDeps,
  clientId: number,
  id: number,
  body: DraftBody,
): Promise<{ draft_version: number; issues: JourneyIssue[] }> {
  refuseSystemField(id, 'definition');
  assertDraftSize(body.definition, 'definition');
  const journey = await findOwnJourney(deps, clientId, id);
  refuseArchived(journey);
  const stale = () =>
    conflict('state', 'draft_version', `The draft changed since version ${body.draft_version}; read it again`);
  if (journey.draft_version !== body.draft_version) throw stale();
  const at = deps.clock.now().toISOString();
  if ((await deps.journeys.saveDraft(journey, body.definition, body.draft_version, at)) === 'stale') throw stale();
  const refs = await journeyRefs(deps, clientId, [body.definition]);
  return { draft_version: body.draft_version + 1, issues: validateJourney(body.definition, refs).issues };
}

export interface StepImpact {
  step_id: string;
  change: 'removed' | 'changed' | 'unchanged';
  /** Runs on the step now, from the counters' gauge (which follows the runs by the counters' delay). */
  waiting: number;
}

const stepsOf = (draft: unknown): { id?: unknown }[] => {
  const steps = draft && typeof draft === 'object' ? (draft as { steps?: unknown }).steps : undefined;
  return Array.isArray(steps) ? steps.filter((s): s is { id?: unknown } => !!s && typeof s === 'object') : [];
};

/**
 * What a draft does to each step of the live version: removed (no step of its id), changed, unchanged; and how many
 * runs are on each now (`waiting`, the gauge's count: 0 when none).
 */
export function impactOf(
  live: readonly JourneyStep[],
  draft: unknown,
  waiting: Readonly<Record<string, number>> = {},
): StepImpact[] {
  const byId = new Map(stepsOf(draft).map((s) => [s.id, s]));
  return live.map((step) => {
    const next = byId.get(step.id);
    const change = next === undefined ? 'removed' : isDeepStrictEqual(next, step) ? 'unchanged' : 'changed';
    return { step_id: step.id, change, waiting: waiting[step.id] ?? 0 };
  });
}

/**
 * POST /client/journeys/{id}/validate: the saved draft's issues and its impact on the live version. Reads: the
 * journey, then its live version and the references in one wave.
 */
export async function validateDraft(
  deps: ReadDeps & { stats: Pick<StatsStore, 'readJourneyGauge'> },
  clientId: number,
  id: number,
): Promise<{ valid: boolean; issues: JourneyIssue[]; impact: StepImpact[]; counted_at: string | null }> {
  refuseSystemField(id, 'id');
  const journey = await findOwnJourney(deps, clientId, id);
  const published = journey.live_version !== undefined;
  const [refs, live, waiting] = await Promise.all([
    journeyRefs(deps, clientId, [journey.draft]),
    journey.live_version === undefined ? undefined : deps.journeys.version(clientId, id, journey.live_version),
    published ? deps.stats.readJourneyGauge(clientId, id) : undefined,
  ]);
  const countedAt = deps.clock.now().toISOString();
  const { definition, issues } = validateJourney(journey.draft, refs);
  return {
    valid: definition !== undefined && issues.length === 0,
    issues,
    impact: live ? impactOf(live.definition.steps, definition ?? journey.draft, waiting) : [],
    counted_at: live && waiting ? countedAt : null,
  };
}
