import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { JourneyDiffSchema } from '../../shared/domain/journeys/definition/diff.js';
import { diffJourney } from '../../shared/domain/journeys/journey-versions.js';
import { DiffQuery, JourneyIdParams } from '../../shared/domain/journeys/schemas.js';

/** GET /client/journeys/{id}/diff?from=&to= — what changed between two versions, or to the draft. */
export const handler = jsonApi(
  {
    summary: 'Compare versions of a journey',
    description:
      'What changed from version `from` to version `to`, or to the saved draft (`to=draft`): the trigger, the ' +
      'settings, the steps added, removed and changed (with the fields that changed). A draft that is not yet a ' +
      'complete definition: 409 `state` (validate it to see why). A version that does not exist: 404.',
    params: JourneyIdParams,
    query: DiffQuery,
    responses: { 200: JourneyDiffSchema },
    errors: [404, 409],
  },
  [journeyStore],
  async ({ params, query }, { deps, clientId }) => ok(await diffJourney(deps, clientId, params.id, query)),
);
