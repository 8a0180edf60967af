import { conflict, notFound } from '../../errors.js';
import type { Clock, Queue } from '../../platform.js';
import * as z from '../../validation/zod.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { findWebhook } from './find-webhook.js';
import type { WebhookAttemptRecord, WebhookOutbox } from './webhook-outbox.js';
import type { WebhookStore } from './webhook-store.js';

/**
 * Replays are capped (each is a new chain of up to 8 deliveries through the shared lane): an attempt may be replayed
 * this many times, and an endpoint this many times an hour (fixed UTC hours). Past either, 409 `max`.
 */
export const WEBHOOK_REPLAYS_PER_ATTEMPT = 3;
export const WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR = 100;
const REPLAY_WINDOW_SECONDS = 3600;

/** An attempt id as `newAttemptId` makes them. */
const ATTEMPT_ID = /^att_[0-9a-z]{9}[0-9a-f]{8}$/;

export const WebhookAttemptParams = z.object({
  id: plainIdParam(15, 'The webhook endpoint id'),
  attempt_id: z
    .string()
    .check(
      z.maxLength(64, 'Must be at most 64 characters'),
      z.meta({ description: 'An attempt id (`att_…`) from GET /client/webhooks/{id}/attempts' }),
    ),
});

/** GET /client/webhooks/{id}/attempts */
export const WebhookAttemptsQuery = z.object({
  limit: z._default(
    z.coerce
      .number()
      .check(
        z.int('Must be an integer'),
        z.gte(1, 'Must be at least 1'),
        z.lte(100, 'Must be at most 100'),
        z.meta({ description: 'Attempts per page, 1–100 (default 20)' }),
      ),
    20,
  ),
  starting_after: z.optional(
    z.string().check(
      z.maxLength(64, 'Must be an attempt id (att_…) from the page before'),
      z.regex(ATTEMPT_ID, 'Must be an attempt id (att_…) from the page before'),
      z.meta({
        description: 'The last attempt id of the page before (its `next_starting_after`): the page of older attempts',
      }),
    ),
  ),
});
export type WebhookAttemptsQuery = z.output<typeof WebhookAttemptsQuery>;

export const WebhookAttemptView = z
  .object({
    id: z.string(),
    webhook_id: z.int(),
    message_id: z
      .string()
      .check(z.meta({ description: 'The `webhook-id` the delivery carried: the same for every attempt of one event' })),
    event_type: z.string(),
    attempt: z.int().check(z.gte(1), z.meta({ description: 'The attempt number in its chain (1 to 8)' })),
    replay: z.boolean().check(z.meta({ description: 'Part of a replay the client asked for' })),
    attempted_at: UtcTimestamp,
    succeeded: z.boolean().check(z.meta({ description: 'The endpoint answered 2xx' })),
    status_code: z
      .nullable(z.int())
      .check(z.meta({ description: "The endpoint's HTTP status; null when it did not answer" })),
    duration_ms: z.int().check(z.gte(0)),
    response_body: z.nullable(z.string()).check(
      z.meta({
        description:
          'The first 1 KB of what the endpoint answered; null once the contact the event was about is erased',
      }),
    ),
    error: z.nullable(z.string()).check(
      z.meta({
        description:
          'Why nothing was answered: address_refused, dns_failed, connection_failed, timeout, invalid_url (with a detail)',
      }),
    ),
    next_attempt_at: z
      .nullable(UtcTimestamp)
      .check(z.meta({ description: 'When the next attempt is due; null after a success or the last attempt' })),
  })
  .check(z.meta({ id: 'WebhookAttempt', description: 'One delivery attempt of one event to one endpoint.' }));
export type WebhookAttemptView = z.output<typeof WebhookAttemptView>;

export const WebhookAttemptList = z.object({
  attempts: z.array(WebhookAttemptView),
  has_more: z.boolean(),
  next_starting_after: z
    .nullable(z.string())
    .check(z.meta({ description: 'Pass as `starting_after` for the next page; null on the last' })),
});
export type WebhookAttemptList = z.output<typeof WebhookAttemptList>;

export const WebhookReplayResult = z
  .object({
    message_id: z.string(),
    webhook_id: z.int(),
    queued: z.literal(true),
  })
  .check(
    z.meta({
      id: 'WebhookReplay',
      description: 'The event is queued for delivery again, with a retry schedule of its own.',
    }),
  );
export type WebhookReplayResult = z.output<typeof WebhookReplayResult>;

export const toAttemptView = (a: WebhookAttemptRecord): WebhookAttemptView => ({
  id: a.id,
  webhook_id: a.webhook_id,
  message_id: a.message_id,
  event_type: a.event_type,
  attempt: a.attempt,
  replay: a.replay,
  attempted_at: a.attempted_at,
  succeeded: a.succeeded,
  status_code: a.status_code,
  duration_ms: a.duration_ms,
  response_body: a.response_body,
  error: a.error,
  next_attempt_at: a.next_attempt_at,
});

/** GET /client/webhooks/{id}/attempts: newest first, one Query a page (after the endpoint's GetItem). */
export async function listWebhookAttempts(
  deps: { webhooks: WebhookStore; webhookOutbox: WebhookOutbox },
  clientId: number,
  webhookId: number,
  query: WebhookAttemptsQuery,
): Promise<WebhookAttemptList> {
  await findWebhook(deps, clientId, webhookId);
  const page = await deps.webhookOutbox.attempts(clientId, webhookId, {
    limit: query.limit,
    ...(query.starting_after ? { before: query.starting_after } : {}),
  });
  const last = page.attempts.at(-1);
  return {
    attempts: page.attempts.map(toAttemptView),
    has_more: page.more,
    next_starting_after: page.more && last ? last.id : null,
  };
}

/**
 * POST /client/webhooks/{id}/attempts/{attempt_id}/replay: the attempt's event is delivered to the endpoint again,
 * as attempt 1 of a new chain with the full retry schedule (one SQS message; the endpoint must be enabled). 404 when
 * the attempt is not this endpoint's, or its event is past the 30 days messages are kept; 409 while the endpoint is
 * disabled; 409 `max` past WEBHOOK_REPLAYS_PER_ATTEMPT replays of the attempt or WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR
 * of the endpoint this hour (one TransactWriteItems counts both before the message is queued).
 */
export async function replayWebhookAttempt(
  deps: { webhooks: WebhookStore; webhookOutbox: WebhookOutbox; queue: Queue; clock: Clock },
  clientId: number,
  webhookId: number,
  attemptId: string,
): Promise<WebhookReplayResult> {
  const endpoint = await findWebhook(deps, clientId, webhookId);
  const attempt = ATTEMPT_ID.test(attemptId)
    ? await deps.webhookOutbox.attempt(clientId, webhookId, attemptId)
    : undefined;
  if (!attempt) throw notFound('attempt_id', 'Attempt not found');
  const message = await deps.webhookOutbox.message(clientId, attempt.message_id);
  if (!message) throw notFound('attempt_id', 'The event of this attempt is no longer kept (30 days)');
  if (!endpoint.enabled)
    throw conflict('state', 'enabled', 'The endpoint is disabled; enable it (PATCH enabled: true) before replaying');
  const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
  const startsAt = nowSeconds - (nowSeconds % REPLAY_WINDOW_SECONDS);
  const claim = await deps.webhookOutbox.claimReplay(clientId, webhookId, attempt.id, {
    perAttempt: WEBHOOK_REPLAYS_PER_ATTEMPT,
    perWindow: WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR,
    window: { startsAt, expiresAt: startsAt + 2 * REPLAY_WINDOW_SECONDS },
  });
  if (claim === 'attempt_cap') {
    throw conflict(
      'max',
      'attempt_id',
      `This attempt was replayed ${WEBHOOK_REPLAYS_PER_ATTEMPT} times already, the most it may be`,
    );
  }
  if (claim === 'endpoint_cap') {
    const next = new Date((startsAt + REPLAY_WINDOW_SECONDS) * 1000).toISOString();
    throw conflict(
      'max',
      'id',
      `The endpoint was replayed ${WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR} times this hour, the most it may be; replay again from ${next}`,
    );
  }
  await deps.queue.send('webhooks', {
    client_id: clientId,
    webhook_id: webhookId,
    message_id: message.id,
    attempt: 1,
    replay: true,
  });
  return { message_id: message.id, webhook_id: webhookId, queued: true };
}
