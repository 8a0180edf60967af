import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { apiKeyStore } from '../../shared/composition/providers/api-key-store.js';
import { authenticator } from '../../shared/composition/providers/authenticator.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { rotateApiKey, RotatedApiKey } from '../../shared/domain/api-keys/rotate-api-key.js';

/** POST /client/api-keys/rotate — the new key in full, once; the previous key stops working at once. */
export const handler = jsonApi(
  {
    summary: 'Rotate the API key',
    description:
      'Issues a new key and disables the previous one at once. The full key is in this answer only; store it now. ' +
      'With an API key, that key is rotated (it keeps its label); with a dashboard session, the signed-in user’s own ' +
      'key, created on first use; with a JWT, the client’s current key. Of concurrent rotations of one key exactly one ' +
      "wins; the others get 409. The new key keeps the previous one's creator and holder (it is disabled when they are " +
      'removed or demoted); 409 `state` when that user is gone or may no longer hold keys.',
    responses: { 200: RotatedApiKey },
    errors: [409],
  },
  [clientStore, apiKeyStore, ids, clock, authenticator],
  async (_input, { deps, clientId, principal }) => {
    const { previousHash, ...key } = await rotateApiKey(deps, clientId, principal);
    if (previousHash) deps.authenticator.forget(previousHash);
    return ok(key, 'API key rotated; store the new key now, it is not shown again');
  },
);
