import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { listExecutions } from '../../shared/domain/executions/list-executions.js';
import { ExecutionListQuery } from '../../shared/domain/executions/schemas.js';

/** GET /client/executions — newest first; filters workflow_id, status, created_from, created_to; page, per_page. */
export const handler = jsonApi({ query: ExecutionListQuery }, [executionStore], async ({ query }, { deps, clientId }) => {
  const { executions, meta } = await listExecutions(deps, clientId, query);
  return ok({ executions }, 'OK', meta);
});
