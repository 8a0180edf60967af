import { conflict } from '../../errors.js';
import type { Clock, Ids } from '../../platform.js';
import type { WebhookBody } from './schemas.js';
import { generateSigningSecret } from './signing-secret.js';
import { assertWebhookUrlAllowed } from './webhook-url-policy.js';
import { MAX_WEBHOOKS_PER_CLIENT, type WebhookRecord, type WebhookStore } from './webhook-store.js';
import { toWebhookWithSecret, type WebhookWithSecret } from './webhook-view.js';

interface Deps {
  clock: Clock;
  ids: Ids;
  webhooks: WebhookStore;
}

/**
 * POST /client/webhooks: a new endpoint with a fresh signing secret, shown in this answer only. A client has at
 * most MAX_WEBHOOKS_PER_CLIENT endpoints (409 `max`, nothing written).
 */
export async function createWebhook(
  deps: Deps,
  clientId: number,
  body: WebhookBody,
  allowPrivateUrls: boolean,
): Promise<WebhookWithSecret> {
  assertWebhookUrlAllowed(body.url, allowPrivateUrls);
  const now = deps.clock.now();
  const webhook: WebhookRecord = {
    id: await deps.ids.next('webhook'),
    client_id: clientId,
    url: body.url,
    description: body.description,
    event_types: body.event_types && [...new Set(body.event_types)],
    enabled: body.enabled,
    humans_only: body.humans_only,
    secret: generateSigningSecret(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  if ((await deps.webhooks.create(webhook, MAX_WEBHOOKS_PER_CLIENT)) === 'limit') {
    throw conflict(
      'max',
      'webhooks',
      `A client may have at most ${MAX_WEBHOOKS_PER_CLIENT} webhook endpoints; delete one first`,
    );
  }
  return toWebhookWithSecret(webhook, now);
}
