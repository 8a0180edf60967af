import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { updateCustomization } from '../../shared/domain/workflows/update-customization.js';
import { CustomizationPatch, WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

/** PATCH /client/workflows/{workflow_id}/customization — overrides + audit record in one transaction. */
export const handler = jsonApi(
  { params: WorkflowIdParams, body: CustomizationPatch },
  async ({ params, body }, { deps, clientId, principal, requestId }) =>
    ok(await updateCustomization(deps, { clientId, principal, requestId }, params.workflow_id, body), 'Customization saved'),
);
