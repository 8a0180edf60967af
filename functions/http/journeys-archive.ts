import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { changeJourneyStatus } from '../../shared/domain/journeys/journey-lifecycle.js';
import { JourneyIdParams, JourneyView } from '../../shared/domain/journeys/schemas.js';

/** POST /client/journeys/{id}/archive. */
export const handler = jsonApi(
  {
    summary: 'Archive a journey',
    description:
      "The journey stops for good: no new runs, runs inside end at their next step, and it no longer counts against the plan's journeys. It keeps its versions. An archived journey: 409 `state`. " +
      'Needs the `manage` role. A system journey (1–8): 409 `state`; enable or disable its workflow with settings ' +
      '`enabled_workflows`.',
    params: JourneyIdParams,
    responses: { 200: JourneyView },
    errors: [404, 409],
  },
  [journeyStore, settingsStore, customizationStore, templateStore, topicStore, segmentStore, clock],
  async ({ params }, { deps, clientId }) =>
    ok(await changeJourneyStatus(deps, clientId, params.id, 'archive'), 'Journey archived'),
);
