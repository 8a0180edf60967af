import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { apiKeyStore } from '../../shared/composition/providers/api-key-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { sessionOf } from '../../shared/domain/auth/session-user.js';
import { createApiKey, CreateApiKeyBody, CreatedApiKeyView } from '../../shared/domain/api-keys/manage-api-keys.js';

/** POST /client/api-keys — a new enabled key with a label; the full key is in this answer only. */
export const handler = jsonApi(
  {
    summary: 'Create an API key',
    description:
      'Extra: a new enabled key with its label, created by the signed-in user. The full key is in this answer only. ' +
      'The key ends with its creator: removing that user, or giving it a role that may not hold keys, disables it. ' +
      '409 `state` when the user was removed or demoted meanwhile.',
    body: CreateApiKeyBody,
    responses: { 201: CreatedApiKeyView },
    errors: [409],
  },
  [apiKeyStore, clientStore, userStore, ids, clock],
  async ({ body }, { deps, clientId, principal }) =>
    created(
      await createApiKey(deps, clientId, sessionOf(principal).user_id, body.label),
      'API key created; store it now, it is not shown again',
    ),
);
