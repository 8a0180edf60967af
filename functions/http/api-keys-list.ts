import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import * as z from '../../shared/validation/zod.js';
import { apiKeyStore } from '../../shared/composition/providers/api-key-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { ApiKeyView, listApiKeys } from '../../shared/domain/api-keys/manage-api-keys.js';

/** GET /client/api-keys — the client's keys, masked (owners and admins, sessions only). */
export const handler = jsonApi(
  {
    summary: 'List the API keys',
    description:
      'Extra: every key of the client, enabled or not, masked, by id; `last_used_at` to the hour. `creator` names ' +
      'the user who created it (id, e-mail, name) and `personal_for` the user whose own key it is: removing either, or ' +
      'giving either a role that may not hold keys, disables the key (`disabled_reason`).',
    responses: { 200: z.object({ api_keys: z.array(ApiKeyView) }) },
  },
  [apiKeyStore, userStore],
  async (_input, { deps, clientId }) => ok({ api_keys: await listApiKeys(deps, clientId) }),
);
