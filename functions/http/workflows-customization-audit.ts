import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { BoundedPageMeta, PAGE_WINDOW_RULE } from '../../shared/domain/pagination/bounded-page.js';
import {
  CustomizationAuditList,
  listCustomizationAudit,
} from '../../shared/domain/workflows/list-customization-audit.js';
import { AuditQuery, WorkflowIdParams } from '../../shared/domain/workflows/schemas.js';

/** GET /client/workflows/{workflow_id}/customization/audit — who changed what, newest first. */
export const handler = jsonApi(
  {
    summary: "List a workflow's customization changes",
    description:
      'Extra to SPEC.md: who changed which overrides and when, newest first. `page` and `per_page` (≤ 100) number ' +
      `the pages: ${PAGE_WINDOW_RULE}; \`next_cursor\` reads one page's worth wherever it is.`,
    params: WorkflowIdParams,
    query: AuditQuery,
    responses: { 200: { data: CustomizationAuditList, meta: BoundedPageMeta } },
    errors: [404],
  },
  [customizationStore, linkSecret],
  async ({ params, query }, { deps, clientId }) => {
    const { meta, ...list } = await listCustomizationAudit(
      { ...deps, cursorSecret: await deps.linkSecret.value() },
      clientId,
      params.workflow_id,
      query,
    );
    return ok(list, 'OK', meta);
  },
);
