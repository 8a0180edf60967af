import { conflict, notFound } from '../../errors.js';
import { diffDefinitions, type JourneyDiff } from './definition/diff.js';
import type { JourneyDefinition } from './definition/types.js';
import { validateJourney } from './definition/validate-journey.js';
import type { JourneyStore, JourneyVersionSummary } from './journey-store.js';
import { findOwnJourney, isSystemJourneyId } from './journey-view.js';
import { versionView } from './publish-journey.js';
import type { JourneyVersionView } from './schemas.js';

interface Deps {
  journeys: JourneyStore;
}

/**
 * GET /client/journeys/{id}/versions: newest first, without definitions (one Query). A system journey has none: its
 * definition is its workflow's customization (GET /client/workflows/{id}/customization/audit keeps its history).
 */
export async function listVersions(
  deps: Deps,
  clientId: number,
  id: number,
): Promise<{ versions: { version: number; published_at: string; published_by: number | null }[] }> {
  if (isSystemJourneyId(id)) return { versions: [] };
  const versions = await deps.journeys.versions(clientId, id);
  // An empty list is either a draft never published or no such journey: only the latter is 404.
  if (versions.length === 0) await findOwnJourney(deps, clientId, id);
  return {
    versions: versions.map((v: JourneyVersionSummary) => ({
      version: v.version,
      published_at: v.published_at,
      published_by: v.published_by ?? null,
    })),
  };
}

/** GET /client/journeys/{id}/versions/{version}: one GetItem. */
export async function getVersion(
  deps: Deps,
  clientId: number,
  id: number,
  version: number,
): Promise<JourneyVersionView> {
  const record = isSystemJourneyId(id) || version < 1 ? undefined : await deps.journeys.version(clientId, id, version);
  if (!record) throw notFound('version', 'Version not found');
  return versionView(record);
}

/**
 * GET /client/journeys/{id}/diff?from=&to=: what changed from one version to another, or to the saved draft (which
 * must be a complete definition: 409 `state` otherwise, its issues say what it lacks). Reads in one wave.
 */
export async function diffJourney(
  deps: Deps,
  clientId: number,
  id: number,
  query: { from: number; to: string },
): Promise<JourneyDiff> {
  const versionAt = (version: number, key: string) =>
    getVersion(deps, clientId, id, version).catch(() => {
      throw notFound(key, 'Version not found');
    });
  const [from, to] = await Promise.all([
    versionAt(query.from, 'from'),
    query.to === 'draft'
      ? draftDefinitionOf(deps, clientId, id)
      : versionAt(Number(query.to), 'to').then((v) => v.definition),
  ]);
  return diffDefinitions(from.definition, to);
}

async function draftDefinitionOf(deps: Deps, clientId: number, id: number): Promise<JourneyDefinition> {
  if (isSystemJourneyId(id)) throw notFound('to', 'A system journey has no draft');
  const journey = await findOwnJourney(deps, clientId, id);
  const { definition } = validateJourney(journey.draft);
  if (!definition)
    throw conflict('state', 'to', 'The draft is not a complete journey yet: validate it to see what it lacks');
  return definition;
}
