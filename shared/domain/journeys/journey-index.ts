import type { JourneyDefinition } from './definition/types.js';
import type { IndexedJourney, JourneyRecord, JourneyVersionRecord } from './journey-records.js';
import { keptWinners, splitRulesOf } from './split-winner.js';

/** The event types the definition's `wait_for_event` steps wait for, each once, in step order. */
export const awaitedEventsOf = (definition: JourneyDefinition): string[] => [
  ...new Set(definition.steps.flatMap((step) => (step.type === 'wait_for_event' ? [step.event] : []))),
];

/** The templates the definition's `send` steps use, each once, ascending. */
export const templatesInUseOf = (definition: JourneyDefinition): number[] =>
  [...new Set(definition.steps.flatMap((step) => (step.type === 'send' ? [step.template_id] : [])))].sort(
    (a, b) => a - b,
  );

/**
 * A running journey as event processing and the executor read it from the client's index: its live version's
 * trigger, entry and settings, what its waits listen to and which templates it sends (a template it uses is not
 * deleted). `status` is the journey's (live or paused).
 */
export function compileIndexEntry(journey: JourneyRecord, version: JourneyVersionRecord): IndexedJourney {
  if (journey.status !== 'live' && journey.status !== 'paused') {
    throw new Error(`Journey ${journey.id} is ${journey.status}: only live and paused journeys are indexed`);
  }
  const { definition } = version;
  const rules = splitRulesOf(definition.steps);
  return {
    id: journey.id,
    name: journey.name,
    status: journey.status,
    live_version: version.version,
    trigger: definition.trigger,
    entry: definition.entry,
    settings: definition.settings,
    awaited_events: awaitedEventsOf(definition),
    templates_in_use: templatesInUseOf(definition),
    ...(Object.keys(rules).length > 0 ? { split_rules: rules } : {}),
  };
}

/** The index's journeys with `entry` in place of the journey's old entry (or added), by id. */
export const withEntry = (journeys: readonly IndexedJourney[], entry: IndexedJourney): IndexedJourney[] =>
  [...journeys.filter((j) => j.id !== entry.id), withWinnersKept(entry, journeys)].sort((a, b) => a.id - b.id);

/** A recompiled entry keeps the winners of its splits still decided on the same terms (keptWinners). */
function withWinnersKept(entry: IndexedJourney, journeys: readonly IndexedJourney[]): IndexedJourney {
  const previous = journeys.find((j) => j.id === entry.id)?.split_winners ?? entry.split_winners;
  const kept = keptWinners(previous, entry.split_rules ?? {});
  const { split_winners: _dropped, ...rest } = entry;
  return Object.keys(kept).length > 0 ? { ...rest, split_winners: kept } : rest;
}

/** The index's journeys without the journey. */
export const withoutJourney = (journeys: readonly IndexedJourney[], journeyId: number): IndexedJourney[] =>
  journeys.filter((j) => j.id !== journeyId);
