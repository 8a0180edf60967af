import { invalidField, notFound } from '../../errors.js';
import { FIRST_CLIENT_JOURNEY_ID } from '../../public/journey-rules.js';
import { WORKFLOW_IDS } from '../workflows/catalog.js';
import type { JourneyRecord } from './journey-records.js';
import type { JourneyStore } from './journey-store.js';

/**
 * Which journey a request may touch: the system ids and the client's own. Apart from the journey views and use cases
 * so a route that reads only the head (the stats) carries none of the definition's schemas.
 */

/** Journeys 1–8 are the system journeys: the workflows of the catalog, as the client customized them. */
export const isSystemJourneyId = (id: number): boolean => WORKFLOW_IDS.includes(id);

/** A system journey cannot be changed as a journey: 422 `read_only` at `key`. */
export function refuseSystemField(id: number, key: string): void {
  if (isSystemJourneyId(id)) {
    throw invalidField(
      'read_only',
      key,
      `Journey ${id} is a system journey: change it with PATCH /client/workflows/${id}/customization, or copy it (POST /client/journeys with copy_of)`,
    );
  }
}

/** One of the client's own journeys; another client's, or none, is 404 (a system id too: callers check it first). */
export async function findOwnJourney(
  deps: { journeys: Pick<JourneyStore, 'get'> },
  clientId: number,
  id: number,
): Promise<JourneyRecord> {
  const journey = id >= FIRST_CLIENT_JOURNEY_ID ? await deps.journeys.get(clientId, id) : undefined;
  if (!journey) throw notFound('id', 'Journey not found');
  return journey;
}
