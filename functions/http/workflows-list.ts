import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { listWorkflows, WorkflowList, WorkflowListMeta } from '../../shared/domain/workflows/list-workflows.js';

/** GET /client/workflows — the catalog with this client's effective configuration. */
export const handler = jsonApi(
  {
    summary: 'List workflows',
    description:
      "Extra to SPEC.md: the lifecycle workflows the service ships, each with the client's configuration — enabled " +
      'or not, the overrides and effective values, and the template in use.',
    responses: { 200: { data: WorkflowList, meta: WorkflowListMeta } },
  },
  [settingsStore, templateStore, customizationStore, clock],
  async (_input, { deps, clientId }) => {
    const { workflows, meta } = await listWorkflows(deps, clientId);
    return ok({ workflows }, 'OK', meta);
  },
);
