import { HttpWebhookSender } from '../../adapters/webhooks/http-webhook-sender.js';
import { provide } from '../container.js';

/** Deliveries over HTTP; private addresses and http only where WEBHOOK_ALLOW_PRIVATE_URLS is set (the local runtime). */
export const webhookSender = provide(
  'webhookSender',
  (c) => new HttpWebhookSender({ allowPrivateUrls: c.config.WEBHOOK_ALLOW_PRIVATE_URLS }),
);
