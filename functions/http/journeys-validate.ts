import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { statsStore } from '../../shared/composition/providers/stats-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { validateDraft } from '../../shared/domain/journeys/edit-journey.js';
import { JourneyIdParams, ValidationView } from '../../shared/domain/journeys/schemas.js';
import { JOURNEY_LIMITS } from '../../shared/public/journey-rules.js';

/** POST /client/journeys/{id}/validate — the saved draft's issues and its impact on the live version. */
export const handler = jsonApi(
  {
    summary: 'Validate a journey draft',
    description:
      'Validates the saved draft as publishing would: its shape and limits (at most ' +
      `${JOURNEY_LIMITS.steps} steps, ${JOURNEY_LIMITS.conditions} conditions a list, ${JOURNEY_LIMITS.branches} ` +
      `branches, ${JOURNEY_LIMITS.armsMin}–${JOURNEY_LIMITS.armsMax} arms, waits up to ` +
      `${JOURNEY_LIMITS.waitMinutes.max} minutes, timeouts ${JOURNEY_LIMITS.timeoutMinutes.min}–` +
      `${JOURNEY_LIMITS.timeoutMinutes.max} minutes), that every step is reachable, no cycle, every edge names a ` +
      'step or null, and every template and topic exists for you. `impact` lists each step of the live version ' +
      'and whether the draft removes, changes or keeps it, with `waiting`: the runs on the step now, read from the ' +
      'counters at `counted_at` (they follow the runs by up to a minute). A system journey: 422 `read_only`.',
    params: JourneyIdParams,
    responses: { 200: ValidationView },
    errors: [404],
  },
  [journeyStore, settingsStore, customizationStore, templateStore, topicStore, segmentStore, statsStore, clock],
  async ({ params }, { deps, clientId }) => ok(await validateDraft(deps, clientId, params.id)),
);
