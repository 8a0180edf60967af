import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { trackingStore } from '../../shared/composition/providers/tracking-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { getSettings } from '../../shared/domain/settings/get-settings.js';
import { SettingsView } from '../../shared/domain/settings/settings-view.js';

/** GET /client/settings — the same view PATCH answers; 404 until the first PATCH. */
export const handler = jsonApi(
  {
    summary: 'Get the client settings',
    description:
      "The same view PATCH answers. A client's settings row is written with the client (every field unset); a client created before that answers 404 until its first PATCH.",
    responses: { 200: SettingsView },
    errors: [404],
  },
  [settingsStore, trackingStore, userStore, clock],
  async (_input, { deps, clientId }) => ok(await getSettings(deps, clientId)),
);
