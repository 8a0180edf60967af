import { invalidField } from '../../errors.js';
import { hostOf, isBlockedAddress } from './blocked-addresses.js';

/**
 * The save-time check of an endpoint URL (create, PATCH). Unless private URLs are allowed (the local runtime), the
 * URL must be https and must not name a blocked address literal or `localhost`. Names are resolved and checked
 * again at every delivery (shared/adapters/webhooks/delivery-address.ts), so a name that later resolves to a private address is still refused.
 */
export function assertWebhookUrlAllowed(url: string, allowPrivateUrls: boolean, key = 'url'): void {
  if (allowPrivateUrls) return;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw invalidField('format', key, 'Must be an https URL');
  const host = hostOf(parsed).toLowerCase();
  if (isBlockedAddress(host) || host === 'localhost' || host.endsWith('.localhost')) {
    throw invalidField('unsafe', key, 'Must not point at a loopback, private, link-local or metadata address');
  }
}
