import { isDeepStrictEqual } from 'node:util';
import { conflict, notFound, unprocessable, type ErrorItem } from '../../errors.js';
import type { Ids } from '../../platform.js';
import { JOURNEY_LIMITS } from '../../public/journey-rules.js';
import { initialSettings } from '../settings/update-settings.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsBundle } from '../settings/settings-store.js';
import { isSystemTemplateId } from '../templates/template-store.js';
import type { JourneyDefinition } from './definition/types.js';
import { validateJourney } from './definition/validate-journey.js';
import { compileIndexEntry, templatesInUseOf, withEntry } from './journey-index.js';
import { journeyRefs } from './journey-refs.js';
import type { IndexedJourney, JourneyRecord, JourneyVersionRecord, StepMove } from './journey-records.js';
import type { SettingsChange } from './journey-store.js';
import { isSystemJourneyId } from './journey-view.js';
import { enabledWorkflowsOf, type ReadDeps } from './read-journeys.js';
import { definitionView, type JourneyVersionView, type PublishBody } from './schemas.js';

export interface PublishDeps extends ReadDeps {
  ids: Ids;
}

/** Another writer came first (a save, a publish, the index, the settings): read again and decide again. */
const MAX_ATTEMPTS = 4;

export const versionView = (record: JourneyVersionRecord): JourneyVersionView => ({
  journey_id: record.journey_id,
  version: record.version,
  definition: definitionView(record.definition),
  moves: record.moves,
  published_at: record.published_at,
  published_by: record.published_by ?? null,
});

/**
 * The moves a publish must carry: one for each step of the live version the new one removes (422 `required` at
 * `moves.<step>`), a `move_to` naming a step of the new version (`reference`), and none for a step not removed.
 */
export function moveProblems(
  live: JourneyDefinition | undefined,
  next: JourneyDefinition,
  moves: Readonly<Record<string, StepMove>>,
): ErrorItem[] {
  const kept = new Set(next.steps.map((s) => s.id));
  const removed = (live?.steps ?? []).map((s) => s.id).filter((id) => !kept.has(id));
  const items: ErrorItem[] = [];
  for (const step of removed) {
    const move = moves[step];
    if (!move) {
      items.push({
        condition: 'required',
        key: `moves.${step}`,
        error: `Step ${step} is removed: choose finish_old, move_to a step or end for the runs on it`,
      });
    } else if (move.action === 'move_to' && !kept.has(move.step_id)) {
      items.push({
        condition: 'reference',
        key: `moves.${step}.step_id`,
        error: `${move.step_id} is not a step of the new version`,
      });
    }
  }
  for (const step of Object.keys(moves)) {
    if (!removed.includes(step)) {
      items.push({
        condition: 'reference',
        key: `moves.${step}`,
        error: `Step ${step} is not one this version removes`,
      });
    }
  }
  return items;
}

/** 422 `max` when the client already runs as many journeys on this trigger as one event type may start. */
function triggerProblems(
  journeys: readonly IndexedJourney[],
  journeyId: number,
  definition: JourneyDefinition,
): ErrorItem[] {
  const mine = triggerChannelOf(definition.trigger);
  const others = journeys.filter((j) => j.id !== journeyId && triggerChannelOf(j.trigger) === mine).length;
  if (others < JOURNEY_LIMITS.liveJourneysPerTrigger) return [];
  const segment = definition.trigger.segment !== undefined;
  return [
    {
      condition: 'max',
      key: segment ? 'definition.trigger.segment' : 'definition.trigger.event',
      error: `At most ${JOURNEY_LIMITS.liveJourneysPerTrigger} live or paused journeys may start on one ${segment ? 'segment and direction' : 'event type'}`,
    },
  ];
}

/** What one event's processing reads a trigger on: its event type, or its segment and direction. */
const triggerChannelOf = (trigger: JourneyDefinition['trigger']): string =>
  trigger.segment ? `segment:${trigger.segment.segment_id}:${trigger.segment.on}` : `event:${trigger.event}`;

/** The settings row without the source workflow among its enabled ones (created when the client has none yet). */
async function disablingWorkflow(
  deps: PublishDeps,
  bundle: SettingsBundle,
  clientId: number,
  workflowId: number,
  at: string,
): Promise<SettingsChange> {
  const current = bundle.settings;
  const base = current ?? initialSettings(clientId, await deps.ids.next('settings'), at);
  return {
    record: {
      ...base,
      enabled_workflows: enabledWorkflowsOf(bundle).filter((w) => w !== workflowId),
      version: (current?.version ?? 0) + 1,
      updated_at: at,
    },
    expectedVersion: current?.version,
  };
}

/**
 * POST /client/journeys/{id}/publish: the saved draft at `draft_version` becomes the next immutable version, and the
 * journey goes live on it. Refused with every problem at once (422: the definition's issues at `definition.<path>`,
 * the moves at `moves.<step>`); a draft changed since (409 `state` at draft_version); a copy of a system journey whose
 * workflow is enabled, unless `disable_source_workflow` (409 `state`). One transaction writes the version, the
 * journey, the index and the summary (and the settings when disabling the workflow), each conditioned on what was
 * read; losing to another writer reads again. Reads: the journey with the index (one BatchGet), then the live
 * version, the references and the settings in one wave.
 */
export async function publishJourney(
  deps: PublishDeps,
  caller: { clientId: number; userId?: number },
  id: number,
  body: PublishBody,
): Promise<JourneyVersionView> {
  return (await publishDraft(deps, caller, id, body)).version;
}

/** A definition as stored and compared: absent and undefined fields are the same absence. */
const canonical = (definition: JourneyDefinition): unknown => JSON.parse(JSON.stringify(definition));

/**
 * publishJourney, telling a publish that wrote a version (`published`) from one whose draft is the live version
 * already (`unchanged`): that one writes nothing and answers the live version as it stands — the journey's status
 * too (a paused journey stays paused: resume is its own call). A publish that must also disable the source workflow
 * is not unchanged: it writes as any other.
 */
export async function publishDraft(
  deps: PublishDeps,
  caller: { clientId: number; userId?: number },
  id: number,
  body: PublishBody,
): Promise<{ version: JourneyVersionView; outcome: 'published' | 'unchanged' }> {
  const { clientId } = caller;
  if (isSystemJourneyId(id)) {
    throw conflict('state', 'id', `Journey ${id} is a system journey: it runs while workflow ${id} is enabled`);
  }
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const { journey, index } = await deps.journeys.getWithIndex(clientId, id);
    if (!journey) throw notFound('id', 'Journey not found');
    if (journey.status === 'archived') throw conflict('state', 'id', 'The journey is archived');
    if (journey.draft_version !== body.draft_version) {
      throw conflict('state', 'draft_version', `The draft is at version ${journey.draft_version}; read it again`);
    }
    const [refs, live, bundle] = await Promise.all([
      journeyRefs(deps, clientId, [journey.draft]),
      journey.live_version === undefined ? undefined : deps.journeys.version(clientId, id, journey.live_version),
      journey.copied_from === undefined ? undefined : deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
    ]);
    const { definition, issues } = validateJourney(journey.draft, refs);
    const moves = body.moves ?? {};
    const items: ErrorItem[] = issues.map((issue) => ({
      condition: issue.condition,
      key: issue.path === '' ? 'definition' : `definition.${issue.path}`,
      error: issue.error,
    }));
    if (definition) {
      items.push(...moveProblems(live?.definition, definition, moves));
      items.push(...triggerProblems(index.journeys, id, definition));
    }
    if (items.length > 0 || !definition) {
      throw unprocessable(
        items.length > 0 ? items : [{ condition: 'format', key: 'definition', error: 'Not a journey definition' }],
      );
    }

    const at = deps.clock.now().toISOString();
    const source = journey.copied_from;
    let settings: SettingsChange | undefined;
    if (source !== undefined && bundle && enabledWorkflowsOf(bundle).includes(source)) {
      if (body.disable_source_workflow !== true) {
        throw conflict(
          'state',
          'disable_source_workflow',
          `Workflow ${source}, which this journey was copied from, is enabled: publish with disable_source_workflow true to replace it, or disable it first`,
        );
      }
      settings = await disablingWorkflow(deps, bundle, clientId, source, at);
    }
    if (live && !settings && isDeepStrictEqual(canonical(definition), canonical(live.definition))) {
      return { version: versionView(live), outcome: 'unchanged' };
    }

    const version: JourneyVersionRecord = {
      client_id: clientId,
      journey_id: id,
      version: (journey.live_version ?? 0) + 1,
      definition,
      moves,
      published_at: at,
      ...(caller.userId !== undefined ? { published_by: caller.userId } : {}),
    };
    const published: JourneyRecord = { ...journey, status: 'live', live_version: version.version, updated_at: at };
    const outcome = await deps.journeys.publish({
      journey: published,
      draftVersion: body.draft_version,
      version,
      index: { readVersion: index.version, journeys: withEntry(index.journeys, compileIndexEntry(published, version)) },
      templateIds: templatesInUseOf(definition).filter((t) => !isSystemTemplateId(t)),
      segmentIds: definition.trigger.segment ? [definition.trigger.segment.segment_id] : [],
      ...(settings ? { settings } : {}),
      at,
    });
    if (outcome === 'done') return { version: versionView(version), outcome: 'published' };
  }
  throw conflict('state', 'id', 'The journey changed while it was being published; retry');
}
