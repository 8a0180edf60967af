import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { rotateApiKey } from '../../shared/domain/api-keys/rotate-api-key.js';

/** POST /client/api-keys/rotate — the new key in full, once; the previous key stops working at once. */
export const handler = jsonApi({}, async (_input, { deps, clientId, principal }) => {
  const { previousHash, ...key } = await rotateApiKey(deps, clientId, principal.keyId);
  deps.authenticator.forget(previousHash);
  return ok(key, 'API key rotated; store the new key now, it is not shown again');
});
