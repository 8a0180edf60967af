import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { ExecutionList, ExecutionListMeta } from '../../shared/domain/executions/execution-view.js';
import { listExecutions } from '../../shared/domain/executions/list-executions.js';
import { ExecutionListQuery } from '../../shared/domain/executions/schemas.js';

/** GET /client/executions — newest first; filters workflow_id, status, created_from, created_to; page, per_page. */
export const handler = jsonApi(
  {
    summary: 'List executions',
    description:
      "The client's workflow executions, newest first. `created_from` and `created_to` are RFC 3339 timestamps or " +
      'dates (YYYY-MM-DD; a date as upper bound includes that whole day). Bad filter values are 422.',
    query: ExecutionListQuery,
    responses: { 200: { data: ExecutionList, meta: ExecutionListMeta } },
  },
  [executionStore],
  async ({ query }, { deps, clientId }) => {
    const { executions, meta } = await listExecutions(deps, clientId, query);
    return ok({ executions }, 'OK', meta);
  },
);
