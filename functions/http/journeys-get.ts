import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { getJourney } from '../../shared/domain/journeys/read-journeys.js';
import { JourneyIdParams, JourneyView } from '../../shared/domain/journeys/schemas.js';

/** GET /client/journeys/{id} — the journey, its draft with its issues, its live definition. */
export const handler = jsonApi(
  {
    summary: 'Get a journey',
    description:
      'The journey, its saved draft with the `issues` that keep it from publishing (each at its JSON path in the ' +
      "definition), and its live version's definition. Ids 1–8 are the system journeys: the workflow as you " +
      "customized it, written as a journey, read-only (copy it to change it). Another account's journey: 404.",
    params: JourneyIdParams,
    responses: { 200: JourneyView },
    errors: [404],
  },
  [journeyStore, settingsStore, customizationStore, templateStore, topicStore, segmentStore, clock],
  async ({ params }, { deps, clientId }) => ok(await getJourney(deps, clientId, params.id)),
);
