import type { IndexedJourney, JourneyIndex } from '../journeys/journey-records.js';
import { ANY_EVENT, UPGRADE_EVENT } from '../workflows/goals.js';
import type { EventRecord } from './event-record.js';

/**
 * The client's running journeys (live or paused) this event exits, by the workflows' rule: its type (or `*`, or
 * `upgrade` for an event with `upgrade: true`) among the journey's exit events — never an event of the trigger's own
 * type, which starts the journey rather than ending it.
 */
export function journeysExitedBy(index: JourneyIndex | undefined, event: EventRecord): IndexedJourney[] {
  return (index?.journeys ?? []).filter((journey) => {
    if (journey.trigger.event === event.type) return false;
    const exits = journey.settings.exit_events;
    return (
      exits.includes(ANY_EVENT) ||
      exits.includes(event.type) ||
      (event.upgrade === true && exits.includes(UPGRADE_EVENT))
    );
  });
}
