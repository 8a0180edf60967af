import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { PageMeta } from '../../shared/domain/pagination/page-meta.js';
import { CustomizationAuditList, listCustomizationAudit } from '../../shared/domain/workflows/list-customization-audit.js';
import { AuditQuery, WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

/** GET /client/workflows/{workflow_id}/customization/audit — who changed what, newest first. */
export const handler = jsonApi(
  {
    summary: "List a workflow's customization changes",
    description: 'Extra to SPEC.md: who changed which overrides and when, newest first.',
    params: WorkflowIdParams,
    query: AuditQuery,
    responses: { 200: { data: CustomizationAuditList, meta: PageMeta } },
    errors: [404],
  },
  [customizationStore],
  async ({ params, query }, { deps, clientId }) => {
    const { entries, meta } = await listCustomizationAudit(deps, clientId, params.workflow_id, query);
    return ok({ entries }, 'OK', meta);
  },
);
