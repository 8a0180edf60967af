import { randomBytes } from 'node:crypto';
import type { WebhookRecord } from './webhook-store.js';

const PREFIX = 'whsec_';

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes (the spec asks for 24–64). */
export const generateSigningSecret = (): string => PREFIX + randomBytes(32).toString('base64');

/** What a read shows of a secret: the prefix and its last 4 characters. */
export const maskSecret = (secret: string): string => `${PREFIX}…${secret.slice(-4)}`;

/** The secrets that sign a delivery at `now`: the current one, and the previous one during its overlap. */
export function signingSecrets(webhook: WebhookRecord, now: Date): string[] {
  const previousLive =
    webhook.previous_secret !== undefined &&
    webhook.previous_secret_expires_at !== undefined &&
    Date.parse(webhook.previous_secret_expires_at) > now.getTime();
  return previousLive ? [webhook.secret, webhook.previous_secret!] : [webhook.secret];
}
