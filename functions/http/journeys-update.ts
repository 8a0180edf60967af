import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { updateJourney } from '../../shared/domain/journeys/edit-journey.js';
import { JourneyIdParams, JourneyPatch, JourneyView } from '../../shared/domain/journeys/schemas.js';

/** PATCH /client/journeys/{id} — name and description. */
export const handler = jsonApi(
  {
    summary: 'Rename a journey',
    description:
      'Any subset of name and description; absent keeps a value. A system journey (1–8) is read-only: 422 ' +
      '`read_only`.',
    params: JourneyIdParams,
    body: JourneyPatch,
    responses: { 200: JourneyView },
    errors: [404, 409],
  },
  [journeyStore, settingsStore, customizationStore, templateStore, topicStore, segmentStore, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await updateJourney(deps, clientId, params.id, body), 'Journey updated'),
);
