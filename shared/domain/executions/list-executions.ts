import type { ExecutionStore } from './execution-store.js';
import { toExecutionView, type ExecutionListMeta, type ExecutionView } from './execution-view.js';
import type { ExecutionListQuery } from './schemas.js';

/** GET /client/executions: newest first, filtered, one page; `meta` carries page, per_page, total, total_pages. */
export async function listExecutions(
  deps: { executions: ExecutionStore },
  clientId: number,
  query: ExecutionListQuery,
): Promise<{ executions: ExecutionView[]; meta: ExecutionListMeta }> {
  const { executions, total, totalExact } = await deps.executions.list(clientId, query);
  return {
    executions: executions.map(toExecutionView),
    // `total_is_exact` false: at least `total` match (the listing stops counting past the page + 1 000).
    meta: { page: query.page, per_page: query.perPage, total, total_pages: Math.ceil(total / query.perPage), total_is_exact: totalExact },
  };
}
