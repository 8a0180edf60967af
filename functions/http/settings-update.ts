import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { trackingStore } from '../../shared/composition/providers/tracking-store.js';
import { updateSettings } from '../../shared/domain/settings/update-settings.js';
import { SettingsPatch } from '../../shared/domain/settings/schemas.js';

/** PATCH /client/settings — merge-patch upsert; clear_* flags unset fields. */
export const handler = jsonApi(
  { body: SettingsPatch },
  [settingsStore, ids, trackingStore, clock],
  async ({ body }, { deps, clientId }) => {
    const { settings, created } = await updateSettings(deps, clientId, body);
    return ok(settings, created ? 'Settings created' : 'Settings updated');
  },
);
