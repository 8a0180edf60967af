import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { CUSTOMIZATION_RANGE } from '../../shared/public/workflow-rules.js';
import { CustomizationView } from '../../shared/domain/workflows/customization.js';
import { updateCustomization } from '../../shared/domain/workflows/update-customization.js';
import { CustomizationPatch, WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

const bounds = (key: keyof typeof CUSTOMIZATION_RANGE) =>
  `${key} ${CUSTOMIZATION_RANGE[key].min}–${CUSTOMIZATION_RANGE[key].max}`;

/** PATCH /client/workflows/{workflow_id}/customization — overrides + audit record in one transaction. */
export const handler = jsonApi(
  {
    summary: 'Customize a workflow',
    description:
      "Sets the client's overrides of a workflow: absent keeps an override, null removes it, a value sets it. Bounds: " +
      `${bounds('delay_minutes')}, ${bounds('priority_score')}, ${bounds('preferred_send_hour')} (sets send time mode 1), ` +
      `${bounds('preferred_send_minute')}; template_id a system template or one of the client's; topic_id one of the client's ` +
      'topics (a marketing workflow only). Each change is audited.',
    params: WorkflowIdParams,
    body: CustomizationPatch,
    responses: { 200: CustomizationView },
    errors: [404, 409],
  },
  [templateStore, customizationStore, topicStore, clock],
  async ({ params, body }, { deps, clientId, principal, requestId }) => {
    const customization = await updateCustomization(deps, { clientId, principal, requestId }, params.workflow_id, body);
    return ok(customization, 'Customization saved');
  },
);
