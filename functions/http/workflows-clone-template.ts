import { created, ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { cloneWorkflowTemplate } from '../../shared/domain/workflows/clone-template.js';
import { WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

/** POST /client/workflows/{workflow_id}/clone-template — 201 with the new copy, 200 with the existing one. */
export const handler = jsonApi(
  { params: WorkflowIdParams },
  [templateStore, customizationStore, ids, clock],
  async ({ params }, { deps, clientId }) => {
    const { created: isNew, template } = await cloneWorkflowTemplate(deps, clientId, params.workflow_id);
    return isNew ? created(template, 'Template cloned') : ok(template, 'Template already cloned');
  },
);
