import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { deleteJourney } from '../../shared/domain/journeys/journey-lifecycle.js';
import { DeletedJourney, JourneyIdParams } from '../../shared/domain/journeys/schemas.js';

/** DELETE /client/journeys/{id} — a journey never published. */
export const handler = jsonApi(
  {
    summary: 'Delete a draft journey',
    description:
      "Removes a journey that was never published, freeing its place in the plan's count. A journey ever published " +
      'keeps its versions (its runs and e-mails name them): archive it instead (409 `state`). A system journey: 409 ' +
      '`state`.',
    params: JourneyIdParams,
    responses: { 200: DeletedJourney },
    errors: [404, 409],
  },
  [journeyStore],
  async ({ params }, { deps, clientId }) => ok(await deleteJourney(deps, clientId, params.id), 'Journey deleted'),
);
