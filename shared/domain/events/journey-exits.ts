import { conditionsHold } from '../journeys/definition/conditions.js';
import type { IndexedJourney, JourneyIndex } from '../journeys/journey-records.js';
import { ANY_EVENT, UPGRADE_EVENT } from '../workflows/goals.js';
import type { EventRecord } from './event-record.js';
import { eventForConditions } from './event-vars.js';

/**
 * The client's running journeys (live or paused) this event exits, by the workflows' rule: its type (or `*`, or
 * `upgrade` for an event with `upgrade: true`) among the journey's exit events — never an event that triggers the
 * journey (its type, or its `or_when`), which starts a run rather than ending one.
 */
export function journeysExitedBy(index: JourneyIndex | undefined, event: EventRecord): IndexedJourney[] {
  const view = eventForConditions(event);
  return (index?.journeys ?? []).filter((journey) => {
    const orWhen = journey.trigger.or_when ?? [];
    if (journey.trigger.event === event.type || (orWhen.length > 0 && conditionsHold(orWhen, { event: view })))
      return false;
    const exits = journey.settings.exit_events;
    return (
      exits.includes(ANY_EVENT) ||
      exits.includes(event.type) ||
      (event.upgrade === true && exits.includes(UPGRADE_EVENT))
    );
  });
}
