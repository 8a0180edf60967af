import * as z from '../../validation/zod.js';

/** One signed POST to an endpoint. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What the endpoint answered, or why nothing was answered. */
export interface WebhookAttemptOutcome {
  /** The HTTP status; null when no answer came (refused address, DNS, connection, timeout). */
  status_code: number | null;
  duration_ms: number;
  /** The first 1 KB of the answer's body (UTF-8); null without an answer. */
  response_body: string | null;
  /** `<code>: <detail>` when no answer came: address_refused, dns_failed, connection_failed, timeout, invalid_url. */
  error: string | null;
}

/**
 * Posts a delivery. The adapter resolves the URL's host, refuses it when any address is private (unless the runtime
 * allows private URLs) and connects to the address it checked; it follows no redirect and gives up after 10 s.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAttemptOutcome>;
}

/** `data` of POST /client/webhooks/{id}/test. */
export const WebhookTestResult = z
  .object({
    delivered: z.boolean().check(z.meta({ description: 'true when the endpoint answered 2xx' })),
    status_code: z
      .nullable(z.int())
      .check(z.meta({ description: "The endpoint's HTTP status; null when it did not answer" })),
    duration_ms: z.int().check(z.gte(0)),
    response_body: z
      .nullable(z.string())
      .check(z.meta({ description: 'The first 1 KB of what the endpoint answered' })),
    error: z.nullable(z.string()).check(
      z.meta({
        description:
          'Why nothing was answered: address_refused, dns_failed, connection_failed, timeout, invalid_url (with a detail)',
      }),
    ),
    message_id: z.string().check(z.meta({ description: 'The `webhook-id` of the test delivery' })),
  })
  .check(z.meta({ id: 'WebhookTestResult', description: 'What a test delivery met.' }));
export type WebhookTestResult = z.output<typeof WebhookTestResult>;
