import type { WorkflowCustomizationStore } from './customization-store.js';
import type { AuditQuery } from './schemas.js';
import { requireWorkflow } from './update-customization.js';

/** GET /client/workflows/{workflow_id}/customization/audit: the changes of one workflow's overrides, newest first. */
export async function listCustomizationAudit(
  deps: { customizations: WorkflowCustomizationStore },
  clientId: number,
  workflowId: number,
  query: AuditQuery,
) {
  requireWorkflow(workflowId);
  const all = await deps.customizations.listAudit(clientId, workflowId);
  const start = (query.page - 1) * query.per_page;
  return {
    entries: all.slice(start, start + query.per_page),
    meta: { page: query.page, per_page: query.per_page, total: all.length, total_pages: Math.ceil(all.length / query.per_page) },
  };
}
