import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { customizationStore } from '../../shared/composition/providers/customization-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { listWorkflows } from '../../shared/domain/workflows/list-workflows.js';

/** GET /client/workflows — the catalog with this client's effective configuration. */
export const handler = jsonApi(
  {},
  [settingsStore, templateStore, customizationStore, clock],
  async (_input, { deps, clientId }) => {
    const { workflows, meta } = await listWorkflows(deps, clientId);
    return ok({ workflows }, 'OK', meta);
  },
);
