import { created, ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { ClonedTemplate, cloneWorkflowTemplate } from '../../shared/domain/workflows/clone-template.js';
import { WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

/** POST /client/workflows/{workflow_id}/clone-template — 201 with the new copy, 200 with the existing one. */
export const handler = jsonApi(
  {
    summary: "Copy a workflow's template",
    description:
      "Makes a client-owned copy of the workflow's system template (201). Idempotent: when the copy exists it is " +
      'returned unchanged (200). Activate it with PATCH /client/workflows/{workflow_id}/customization and its `template_id`.',
    params: WorkflowIdParams,
    responses: {
      200: { data: ClonedTemplate, description: 'The existing copy' },
      201: { data: ClonedTemplate, description: 'The new copy' },
    },
    errors: [404],
  },
  [templateStore, customizationStore, ids, clock],
  async ({ params }, { deps, clientId }) => {
    const { created: isNew, template } = await cloneWorkflowTemplate(deps, clientId, params.workflow_id);
    return isNew ? created(template, 'Template cloned') : ok(template, 'Template already cloned');
  },
);
