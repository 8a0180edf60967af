import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of a delivery: `webhook-id`, `webhook-timestamp` (Unix seconds) and
 * `webhook-signature`, one `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` per secret, space-separated
 * (two during a rotation's overlap). Signed by the `standardwebhooks` package receivers verify with.
 */
export function signDelivery(
  messageId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' '),
  };
}
