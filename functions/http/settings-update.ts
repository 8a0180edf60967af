import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { trackingStore } from '../../shared/composition/providers/tracking-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { updateSettings } from '../../shared/domain/settings/update-settings.js';
import { SettingsPatch } from '../../shared/domain/settings/schemas.js';
import { SettingsView } from '../../shared/domain/settings/settings-view.js';

/** PATCH /client/settings — merge-patch upsert; clear_* flags unset fields. */
export const handler = jsonApi(
  {
    summary: 'Update the client settings',
    description:
      'Partial update; creates the settings on first use. An absent field is left as it is, null (or its `clear_<field>` ' +
      'flag) unsets it; a field and its clear flag together are 422. Values beyond the plan are 422. ' +
      "`email_from_address` must be at one of the client's verified domains and not the service's own sender (422 " +
      '`unsafe`); checked only when the patch sets it, so a stored value that breaks the rule never blocks other edits.',
    body: SettingsPatch,
    responses: { 200: SettingsView },
    errors: [409],
  },
  [settingsStore, ids, trackingStore, userStore, clock],
  async ({ body }, { deps, clientId }) => {
    const { settings, created } = await updateSettings(deps, clientId, body);
    return ok(settings, created ? 'Settings created' : 'Settings updated');
  },
);
