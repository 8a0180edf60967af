import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { WebhookEventType } from './event-types.js';
import { issueCondition } from '../../validation/issue-items.js';
import { WEBHOOK_DESCRIPTION_MAX } from '../../public/webhook-rules.js';

/** `{id}` of the webhook paths; anything that is not a plain id names no endpoint (→ 404). */
export const WebhookIdParams = z.object({
  id: plainIdParam(15, 'The webhook endpoint id'),
});

const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL; whether http or a private host is allowed depends on the runtime (webhook-url-policy.ts). */
const WebhookUrl = z
  .string({ error: (i) => (i.input === undefined ? 'url is required' : 'url must be a string') })
  .check(
    z.trim(),
    z.maxLength(MAX_URL_LENGTH, { message: `Must be at most ${MAX_URL_LENGTH} characters`, abort: true }),
    z.refine((v: string) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), {
      message: 'Must be an absolute http or https URL',
      params: issueCondition('format'),
    }),
    z.meta({
      format: 'uri',
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]',
      description:
        'Where deliveries are POSTed. On AWS it must be https and must not name a loopback, private, link-local or ' +
        'metadata address (422; depends on the runtime); the local runtime also accepts http and loopback.',
      examples: ['https://example.com/webhooks/els'],
    }),
  );

const description = z
  .string({ error: 'Must be a string' })
  .check(z.trim(), z.maxLength(WEBHOOK_DESCRIPTION_MAX, `Must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`));

/** Null (or absent on create): every event type; otherwise the distinct types to receive. */
const eventTypes = z
  .nullable(
    z
      .array(WebhookEventType)
      .check(
        z.minLength(1, 'Must list at least one event type, or be null for all'),
        z.maxLength(50, 'Must list at most 50 event types'),
      ),
  )
  .check(z.meta({ description: 'The event types to receive; null (the default) receives every type.' }));

const enabled = z.boolean({ error: 'Must be a boolean' });

const humansOnly = z.boolean({ error: 'Must be a boolean' }).check(
  z.meta({
    description:
      'true: email.opened and email.clicked made by machines (scanners, Apple Mail Privacy Protection) are not sent here',
  }),
);

/** POST /client/webhooks */
export const WebhookBody = z.object({
  url: WebhookUrl,
  description: z._default(z.optional(description), ''),
  event_types: z._default(z.optional(eventTypes), null),
  enabled: z._default(z.optional(enabled), true),
  humans_only: z._default(z.optional(humansOnly), false),
});
export type WebhookBody = z.output<typeof WebhookBody>;

/** PATCH /client/webhooks/{id}: any subset of the settings. */
export const WebhookPatch = z.object({
  url: z.optional(WebhookUrl),
  description: z.optional(description),
  event_types: z.optional(eventTypes),
  enabled: z.optional(enabled),
  humans_only: z.optional(humansOnly),
});
export type WebhookPatch = z.output<typeof WebhookPatch>;
