import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { listVersions } from '../../shared/domain/journeys/journey-versions.js';
import { JourneyIdParams, JourneyVersionList } from '../../shared/domain/journeys/schemas.js';

/** GET /client/journeys/{id}/versions — newest first. */
export const handler = jsonApi(
  {
    summary: 'List the versions of a journey',
    description:
      'Every published version, newest first, without its definition (GET …/versions/{version} has it). A system ' +
      'journey has none: its workflow customization has an audit trail instead.',
    params: JourneyIdParams,
    responses: { 200: JourneyVersionList },
    errors: [404],
  },
  [journeyStore],
  async ({ params }, { deps, clientId }) => ok(await listVersions(deps, clientId, params.id)),
);
