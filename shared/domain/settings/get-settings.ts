import { notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { quotaMonthOf } from './quota-period.js';
import type { SettingsStore } from './settings-store.js';
import { deliverabilityFigures } from '../tracking/deliverability-guard.js';
import type { TrackingStore } from '../tracking/tracking-store.js';
import { settingsViewOf, type SettingsView } from './settings-view.js';
import type { UserStore } from '../users/user-store.js';
import { serviceSendersOf, type ServiceSendersConfig } from '../domains/service-senders.js';

/**
 * GET /client/settings: the same view PATCH answers. The row is written with the client (createClient); a client created
 * before that has none: 404 until its first PATCH creates it.
 */
export async function getSettings(
  deps: {
    clock: Clock;
    settings: SettingsStore;
    tracking: TrackingStore;
    users: UserStore;
    config: ServiceSendersConfig;
  },
  clientId: number,
): Promise<SettingsView> {
  const now = deps.clock.now();
  const bundle = await deps.settings.load(clientId, quotaMonthOf(now));
  if (!bundle.client || !bundle.settings) {
    throw notFound('settings', 'No settings yet: PATCH /client/settings creates them');
  }
  // One wave: the deliverability figures and the users (current_user_count, roles).
  const [deliverability, users] = await Promise.all([
    deliverabilityFigures(deps.tracking, bundle.client, now),
    deps.users.list(clientId),
  ]);
  return settingsViewOf(
    { ...bundle, settings: bundle.settings, client: bundle.client },
    now,
    deliverability,
    users,
    serviceSendersOf(deps.config),
  );
}
