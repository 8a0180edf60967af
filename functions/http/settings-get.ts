import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { getSettings } from '../../shared/domain/settings/get-settings.js';

/** GET /client/settings — the same view PATCH answers; 404 until the first PATCH. */
export const handler = jsonApi({}, async (_input, { deps, clientId }) => ok(await getSettings(deps, clientId)));
