import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { saveDraft } from '../../shared/domain/journeys/edit-journey.js';
import { DraftBody, DraftSaved, JourneyIdParams } from '../../shared/domain/journeys/schemas.js';
import { JOURNEY_LIMITS } from '../../shared/public/journey-rules.js';

/** PUT /client/journeys/{id}/draft — saves the draft, complete or not. */
export const handler = jsonApi(
  {
    summary: 'Save a journey draft',
    description:
      `Saves any JSON object of at most ${JOURNEY_LIMITS.definitionBytes} bytes as the draft (422 \`max\` beyond), ` +
      'complete or not, and answers its `issues`: what keeps it from publishing, each at its JSON path. ' +
      '`draft_version` must be the one read (409 `state` when another save came first); the answer holds the new ' +
      'one. Live runs are not affected until a publish. An archived journey: 409 `state`; a system journey: 422 ' +
      '`read_only`.',
    params: JourneyIdParams,
    body: DraftBody,
    responses: { 200: DraftSaved },
    errors: [404, 409],
  },
  [journeyStore, settingsStore, customizationStore, templateStore, topicStore, segmentStore, clock],
  async ({ params, body }, { deps, clientId }) => ok(await saveDraft(deps, clientId, params.id, body), 'Draft saved'),
);
