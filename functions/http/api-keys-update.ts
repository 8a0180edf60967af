import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { apiKeyStore } from '../../shared/composition/providers/api-key-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { authenticator } from '../../shared/composition/providers/authenticator.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import {
  ApiKeyIdParams,
  ApiKeyView,
  updateApiKey,
  UpdateApiKeyBody,
} from '../../shared/domain/api-keys/manage-api-keys.js';

/** PATCH /client/api-keys/{id} — label and/or enabled. */
export const handler = jsonApi(
  {
    summary: 'Update an API key',
    description:
      'Extra: `label` and/or `enabled`. A disabled key is refused (401) at once by the server that disabled ' +
      'it and by every other within the authentication cache’s 60 s. A key disabled because its user was removed or ' +
      'demoted (`disabled_reason`) cannot be enabled again: 409 `state`.',
    params: ApiKeyIdParams,
    body: UpdateApiKeyBody,
    responses: { 200: ApiKeyView },
    errors: [404, 409],
  },
  [apiKeyStore, clientStore, userStore, ids, clock, authenticator],
  async ({ params, body }, { deps, clientId }) => {
    const { view, keyHash } = await updateApiKey(deps, clientId, params.id, body);
    if (!view.enabled) deps.authenticator.forget(keyHash);
    return ok(view, 'API key updated');
  },
);
