import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { updateCustomization } from '../../shared/domain/workflows/update-customization.js';
import { CustomizationPatch, WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

/** PATCH /client/workflows/{workflow_id}/customization — overrides + audit record in one transaction. */
export const handler = jsonApi(
  { params: WorkflowIdParams, body: CustomizationPatch },
  [templateStore, customizationStore, clock],
  async ({ params, body }, { deps, clientId, principal, requestId }) => {
    const customization = await updateCustomization(deps, { clientId, principal, requestId }, params.workflow_id, body);
    return ok(customization, 'Customization saved');
  },
);
