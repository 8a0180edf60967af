import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { updateSettings } from '../../shared/domain/settings/update-settings.js';
import { SettingsPatch } from '../../shared/domain/settings/schemas.js';

/** PATCH /client/settings — merge-patch upsert; clear_* flags unset fields. */
export const handler = jsonApi({ body: SettingsPatch }, async ({ body }, { deps, clientId }) => {
  const { settings, created } = await updateSettings(deps, clientId, body);
  return ok(settings, created ? 'Settings created' : 'Settings updated');
});
