import { created, ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { publishDraft } from '../../shared/domain/journeys/publish-journey.js';
import { JourneyIdParams, JourneyVersionView, PublishBody } from '../../shared/domain/journeys/schemas.js';
import { JOURNEY_LIMITS } from '../../shared/public/journey-rules.js';

/** POST /client/journeys/{id}/publish — the draft becomes the next version, live (200 when it is the live one already). */
export const handler = jsonApi(
  {
    summary: 'Publish a journey',
    description:
      'The saved draft at `draft_version` becomes the next immutable version and the journey goes `live` on it: new ' +
      "runs start on it, and runs already inside move to it at their next step when that step's id still exists. " +
      'Every step of the live version the draft removes needs a choice in `moves` (422 `required` at ' +
      '`moves.<step>`); a `move_to` must name a step of the new version (422 `reference`). Every problem is ' +
      "reported at once: the definition's at `definition.<path>`. At most " +
      `${JOURNEY_LIMITS.liveJourneysPerTrigger} live or paused journeys per trigger event type (422 \`max\`). A draft ` +
      'changed since `draft_version`: 409 `state`. A copy of a system journey whose workflow is enabled: 409 `state`, ' +
      'unless `disable_source_workflow` is true, which disables the workflow in the same write. Needs the `manage` ' +
      'role. A system journey: 409 `state`. A draft identical to the live version publishes nothing: 200 with the ' +
      'live version as it stands (no new version; a paused journey stays paused), so publishing is safe to repeat.',
    params: JourneyIdParams,
    body: PublishBody,
    responses: {
      200: { data: JourneyVersionView, description: 'The draft is the live version already: nothing was written' },
      201: { data: JourneyVersionView, description: 'The new live version' },
    },
    errors: [404, 409],
  },
  [journeyStore, settingsStore, customizationStore, templateStore, topicStore, segmentStore, clock, ids],
  async ({ params, body }, { deps, clientId, principal }) => {
    const userId = principal.session?.user_id;
    const { version, outcome } = await publishDraft(
      deps,
      { clientId, ...(userId !== undefined ? { userId } : {}) },
      params.id,
      body,
    );
    return outcome === 'published'
      ? created(version, 'Journey published')
      : ok(version, 'Journey unchanged: the draft is the live version');
  },
);
