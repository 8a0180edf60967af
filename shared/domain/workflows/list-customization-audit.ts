import * as z from '../../validation/zod.js';
import { pageMetaOf, type PageMeta } from '../pagination/page-meta.js';
import { CustomizationAuditView } from './customization.js';
import type { WorkflowCustomizationStore } from './customization-store.js';
import type { AuditQuery } from './schemas.js';
import { requireWorkflow } from './update-customization.js';

/** `data` of the customization audit (its `meta` is a PageMeta). */
export const CustomizationAuditList = z.object({ entries: z.array(CustomizationAuditView).check(z.meta({ description: 'Newest first' })) });

/** GET /client/workflows/{workflow_id}/customization/audit: the changes of one workflow's overrides, newest first. */
export async function listCustomizationAudit(
  deps: { customizations: WorkflowCustomizationStore },
  clientId: number,
  workflowId: number,
  query: AuditQuery,
): Promise<z.output<typeof CustomizationAuditList> & { meta: PageMeta }> {
  requireWorkflow(workflowId);
  const all = await deps.customizations.listAudit(clientId, workflowId);
  const start = (query.page - 1) * query.per_page;
  return {
    // Entries written before issue 24 lack its overrides: not overridden then.
    entries: all.slice(start, start + query.per_page).map((entry) => ({
      ...entry,
      before: { exit_events: null, conversion_window_days: null, topic_id: null, ...entry.before },
      after: { exit_events: null, conversion_window_days: null, topic_id: null, ...entry.after },
    })),
    meta: pageMetaOf(query.page, query.per_page, all.length),
  };
}
