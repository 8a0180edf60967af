import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { getVersion } from '../../shared/domain/journeys/journey-versions.js';
import { JourneyVersionParams, JourneyVersionView } from '../../shared/domain/journeys/schemas.js';

/** GET /client/journeys/{id}/versions/{version} — one published version. */
export const handler = jsonApi(
  {
    summary: 'Get a version of a journey',
    description: 'The immutable definition of a published version and the moves chosen for the steps it removed.',
    params: JourneyVersionParams,
    responses: { 200: JourneyVersionView },
    errors: [404],
  },
  [journeyStore],
  async ({ params }, { deps, clientId }) => ok(await getVersion(deps, clientId, params.id, params.version)),
);
