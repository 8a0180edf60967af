import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { apiKeyStore } from '../../shared/composition/providers/api-key-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { authenticator } from '../../shared/composition/providers/authenticator.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { ApiKeyIdParams, ApiKeyView, deleteApiKey } from '../../shared/domain/api-keys/manage-api-keys.js';

/** DELETE /client/api-keys/{id} — the key is gone; the answer shows what it was. */
export const handler = jsonApi(
  {
    summary: 'Delete an API key',
    description:
      'Extra: the key is deleted and refused (401) at once by the server that deleted it and by every other ' +
      'within the authentication cache’s 60 s; the answer shows what it was.',
    params: ApiKeyIdParams,
    responses: { 200: ApiKeyView },
    errors: [404],
  },
  [apiKeyStore, clientStore, userStore, ids, clock, authenticator],
  async ({ params }, { deps, clientId }) => {
    const { view, keyHash } = await deleteApiKey(deps, clientId, params.id);
    deps.authenticator.forget(keyHash);
    return ok(view, 'API key deleted');
  },
);
