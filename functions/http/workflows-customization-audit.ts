import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { listCustomizationAudit } from '../../shared/domain/workflows/list-customization-audit.js';
import { AuditQuery, WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

/** GET /client/workflows/{workflow_id}/customization/audit — who changed what, newest first. */
export const handler = jsonApi(
  { params: WorkflowIdParams, query: AuditQuery },
  [customizationStore],
  async ({ params, query }, { deps, clientId }) => {
    const { entries, meta } = await listCustomizationAudit(deps, clientId, params.workflow_id, query);
    return ok({ entries }, 'OK', meta);
  },
);
