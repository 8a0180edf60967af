import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { listJourneys } from '../../shared/domain/journeys/read-journeys.js';
import { JourneyList, JourneyListMeta } from '../../shared/domain/journeys/schemas.js';

/** GET /client/journeys — the system journeys and the client's own. */
export const handler = jsonApi(
  {
    summary: 'List journeys',
    description:
      'The 8 system journeys first (ids 1–8, the workflows: `system` true, `live` while the workflow is enabled in ' +
      'settings `enabled_workflows`, else `paused`), then your own by id, archived ones included. Definitions are ' +
      'not listed: GET /client/journeys/{id} has them. `meta.max_journeys` is how many of your own (not archived) ' +
      'your plan allows.',
    responses: { 200: { data: JourneyList, meta: JourneyListMeta } },
  },
  [journeyStore, settingsStore, clock],
  async (_input, { deps, clientId }) => {
    const { journeys, meta } = await listJourneys(deps, clientId);
    return ok({ journeys }, 'OK', meta);
  },
);
