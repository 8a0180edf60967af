import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { createJourney } from '../../shared/domain/journeys/create-journey.js';
import { JourneyCreateBody, JourneyView } from '../../shared/domain/journeys/schemas.js';
import { JOURNEY_LIMITS, MAX_JOURNEYS_BY_TIER } from '../../shared/public/journey-rules.js';

/** POST /client/journeys — a new draft journey. */
export const handler = jsonApi(
  {
    summary: 'Create a journey',
    description:
      'A new journey in `draft` (draft_version 1), from `definition`, from `copy_of` (a system journey 1–8 as you ' +
      'customized it, or one of yours), or else from a skeleton: one `send` step that ends the run, whose issues name ' +
      'what is left to choose (the trigger event and the template). Nothing runs until it is published. Journeys not ' +
      `archived are limited by plan (free ${MAX_JOURNEYS_BY_TIER.free}, starter ${MAX_JOURNEYS_BY_TIER.starter}, growth ` +
      `${MAX_JOURNEYS_BY_TIER.growth}, scale ${MAX_JOURNEYS_BY_TIER.scale}): 409 \`max\` beyond. A definition over ` +
      `${JOURNEY_LIMITS.definitionBytes} bytes as JSON: 422 \`max\`. The answer is the journey with its draft's issues.`,
    body: JourneyCreateBody,
    responses: { 201: JourneyView },
    errors: [404, 409],
  },
  [journeyStore, settingsStore, customizationStore, templateStore, topicStore, segmentStore, clock],
  async ({ body }, { deps, clientId }) => created(await createJourney(deps, clientId, body), 'Journey created'),
);
