import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { trackingStore } from '../../shared/composition/providers/tracking-store.js';
import { getSettings } from '../../shared/domain/settings/get-settings.js';

/** GET /client/settings — the same view PATCH answers; 404 until the first PATCH. */
export const handler = jsonApi(
  {},
  [settingsStore, trackingStore, clock],
  async (_input, { deps, clientId }) => ok(await getSettings(deps, clientId)),
);
