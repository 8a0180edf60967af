import * as z from '../../validation/zod.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { WebhookEventType } from './event-types.js';
import { maskSecret } from './signing-secret.js';
import type { WebhookRecord } from './webhook-store.js';

const fields = {
  id: z.int().check(z.gte(1)),
  url: z.string(),
  description: z.string(),
  event_types: z.nullable(z.array(WebhookEventType)).check(z.meta({ description: 'null: every event type' })),
  enabled: z.boolean(),
  humans_only: z.boolean().check(z.meta({ description: 'Machine opens and clicks are not sent here' })),
  failing_since: z.nullable(UtcTimestamp).check(
    z.meta({
      description:
        'Since when every attempt failed (null while deliveries succeed); at 5 days the endpoint is disabled',
    }),
  ),
  slow_since: z.nullable(UtcTimestamp).check(
    z.meta({
      description:
        'Since when successful deliveries took over 2.5 s (null while they are prompt): meanwhile the endpoint is served by the slower lane of failing and slow endpoints, until an answer is prompt again',
    }),
  ),
  disabled_reason: z.nullable(z.enum(['failing'])).check(
    z.meta({
      description:
        '`failing`: disabled by the service after failing every attempt for 5 days (the client was e-mailed); null otherwise',
    }),
  ),
  masked_secret: z.string().check(
    z.meta({
      description: 'The signing secret, masked: `whsec_…` + its last 4 characters',
      examples: ['whsec_…k9Q='],
    }),
  ),
  previous_secret_expires_at: z
    .nullable(UtcTimestamp)
    .check(z.meta({ description: 'After a rotation: until when the previous secret still signs beside the new one' })),
  created_at: UtcTimestamp,
  updated_at: UtcTimestamp,
};

/** An endpoint as reads show it: the secret masked. */
export const WebhookView = z.object(fields).check(
  z.meta({
    id: 'Webhook',
    description: 'A webhook endpoint; deliveries follow the Standard Webhooks specification.',
  }),
);
export type WebhookView = z.output<typeof WebhookView>;

/** An endpoint as its creation and a rotation show it: with the signing secret, shown this once. */
export const WebhookWithSecret = z
  .object({
    ...fields,
    secret: z.string().check(
      z.meta({
        description: 'The signing secret (`whsec_` + base64); shown only in this answer',
        examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      }),
    ),
  })
  .check(
    z.meta({ id: 'WebhookWithSecret', description: 'A webhook endpoint with its new signing secret, shown once.' }),
  );
export type WebhookWithSecret = z.output<typeof WebhookWithSecret>;

/** `data` of GET /client/webhooks. */
export const WebhookList = z.object({ webhooks: z.array(WebhookView) });

/** The read view of a stored endpoint; the previous secret's expiry only while it still signs. */
export function toWebhookView(w: WebhookRecord, now: Date): WebhookView {
  const overlap = w.previous_secret_expires_at && Date.parse(w.previous_secret_expires_at) > now.getTime();
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    event_types: w.event_types,
    enabled: w.enabled,
    humans_only: w.humans_only === true,
    failing_since: w.failing_since ?? null,
    slow_since: w.slow_since ?? null,
    disabled_reason: w.disabled_reason ?? null,
    masked_secret: maskSecret(w.secret),
    previous_secret_expires_at: overlap ? w.previous_secret_expires_at! : null,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

/** The view with the secret: only for the answer that created it. */
export const toWebhookWithSecret = (w: WebhookRecord, now: Date): WebhookWithSecret => ({
  ...toWebhookView(w, now),
  secret: w.secret,
});
