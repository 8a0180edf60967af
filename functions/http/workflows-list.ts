import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { listWorkflows } from '../../shared/domain/workflows/list-workflows.js';

/** GET /client/workflows — the catalog with this client's effective configuration. */
export const handler = jsonApi({}, async (_input, { deps, clientId }) => {
  const { workflows, meta } = await listWorkflows(deps, clientId);
  return ok({ workflows }, 'OK', meta);
});
