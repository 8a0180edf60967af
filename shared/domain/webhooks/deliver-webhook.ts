import { randomBytes } from 'node:crypto';
import type { ClientStore } from '../clients/client-store.js';
import {
  MAX_QUEUE_DELAY_SECONDS,
  type Clock,
  type Queue,
  type Scheduler,
  type WebhookDeliveryMessage,
} from '../../platform.js';
import { retryDelayAfter, WEBHOOK_DISABLE_AFTER_MS, WEBHOOK_MAX_ATTEMPTS } from './retry-schedule.js';
import { signDelivery } from './sign-delivery.js';
import { signingSecrets } from './signing-secret.js';
import type { EndpointHealthChange, WebhookAttemptRecord, WebhookOutbox } from './webhook-outbox.js';
import type { WebhookSender } from './webhook-sender.js';
import type { WebhookRecord, WebhookStore } from './webhook-store.js';

/** The service's own e-mail to a client (the system mail path): here, that an endpoint was disabled. */
export interface ClientNotices {
  webhookDisabled(
    client: { id: number; email: string; name: string },
    endpoint: Pick<WebhookRecord, 'id' | 'url'>,
    failingSince: string,
  ): Promise<void>;
}

export interface DeliverDeps {
  clock: Clock;
  webhooks: WebhookStore;
  webhookOutbox: WebhookOutbox;
  webhookSender: WebhookSender;
  queue: Queue;
  scheduler: Scheduler;
  clients: ClientStore;
  clientNotices: ClientNotices;
  /** The waits between attempts (default: retry-schedule.ts). */
  retrySchedule?: readonly number[];
}

/**
 * Which queue a delivery came from: `healthy` serves endpoints that answer promptly; `failing` — the degraded lane,
 * its own small concurrency — serves endpoints that are failing or slow, so their timeouts and long answers hold no
 * other endpoint's turn.
 */
export type DeliveryLane = 'healthy' | 'failing';

/**
 * A success that took longer than this counts against its endpoint: it held a worker of the shared lane that long
 * (a 2xx after 9.9 s holds one for 9.9 s), so the endpoint's next deliveries go to the degraded lane until one of
 * them is fast again.
 */
export const SLOW_SUCCESS_MS = 2_500;

/** The lane an endpoint's deliveries belong to: the degraded one while it is failing or slow. */
export const laneOf = (endpoint: Pick<WebhookRecord, 'failing_since' | 'slow_since'>): DeliveryLane =>
  endpoint.failing_since || endpoint.slow_since ? 'failing' : 'healthy';

/** The queue of each lane. */
export const LANE_QUEUE = { healthy: 'webhooks', failing: 'webhooks-failing' } as const;

export type DeliverOutcome =
  | { kind: 'moved_to_failing_lane' }
  | { kind: 'delivered'; attempt: WebhookAttemptRecord }
  | { kind: 'retrying'; attempt: WebhookAttemptRecord }
  | { kind: 'failed'; attempt: WebhookAttemptRecord; disabled: boolean }
  | { kind: 'dropped'; reason: 'endpoint_missing' | 'endpoint_disabled' | 'message_missing' };

/** A time-ordered attempt id: newest first is descending id order. */
export const newAttemptId = (at: Date): string =>
  `att_${at.getTime().toString(36).padStart(9, '0')}${randomBytes(4).toString('hex')}`;

/**
 * One attempt of one message to one endpoint. A delivery to a failing endpoint that arrives on the healthy
 * lane moves to the failing lane first. Then: sign with every live secret, POST (10 s, no redirect,
 * the resolved address checked), log the attempt, then
 * - 2xx: done; a failing endpoint recovers;
 * - otherwise, attempts left: the next is queued (SQS delay up to 15 min, EventBridge Scheduler beyond);
 * - the last attempt failed: the message stays failed for this endpoint, kept for replay.
 * An endpoint whose every attempt failed for WEBHOOK_DISABLE_AFTER_MS is disabled by the attempt that finds it so,
 * and its client is told by e-mail once (a notice that failed is sent by the next delivery of the endpoint: SQS's
 * redelivery of this one). A deleted or disabled endpoint, or an expired message, drops the delivery.
 * A store or queue failure is thrown: SQS delivers the attempt again (the receiver may then see it twice; it
 * de-duplicates by `webhook-id`).
 */
export async function deliverWebhook(
  deps: DeliverDeps,
  message: WebhookDeliveryMessage,
  lane: DeliveryLane = 'healthy',
): Promise<DeliverOutcome> {
  const [endpoint, stored] = await Promise.all([
    deps.webhooks.get(message.client_id, message.webhook_id),
    deps.webhookOutbox.message(message.client_id, message.message_id),
  ]);
  if (!endpoint) return { kind: 'dropped', reason: 'endpoint_missing' };
  if (!endpoint.enabled) {
    // The disabling attempt's e-mail to the client failed (or its run died after the disable): send it now.
    if (endpoint.disabled_notice_pending && endpoint.failing_since)
      await tellDisabled(deps, endpoint, endpoint.failing_since);
    return { kind: 'dropped', reason: 'endpoint_disabled' };
  }
  if (!stored) return { kind: 'dropped', reason: 'message_missing' };
  // A failing or slow endpoint is served by the degraded lane (one SQS message, no POST here). Once a delivery there
  // succeeds promptly, failing_since and slow_since are cleared and its next deliveries come back to this lane.
  if (lane === 'healthy' && laneOf(endpoint) === 'failing') {
    await deps.queue.send(LANE_QUEUE.failing, message);
    return { kind: 'moved_to_failing_lane' };
  }

  const now = deps.clock.now();
  const headers = signDelivery(stored.id, now, stored.payload, signingSecrets(endpoint, now));
  const outcome = await deps.webhookSender.send({ url: endpoint.url, headers, body: stored.payload });
  const succeeded = outcome.status_code !== null && outcome.status_code >= 200 && outcome.status_code < 300;
  const delay = succeeded ? undefined : retryDelayAfter(message.attempt, deps.retrySchedule);
  const attemptedAt = now.toISOString();
  const nextAt = delay === undefined ? null : new Date(now.getTime() + delay * 1000);
  const attempt: WebhookAttemptRecord = {
    id: newAttemptId(now),
    client_id: message.client_id,
    webhook_id: message.webhook_id,
    message_id: stored.id,
    event_type: stored.type,
    attempt: message.attempt,
    replay: message.replay === true,
    attempted_at: attemptedAt,
    succeeded,
    ...outcome,
    next_attempt_at: nextAt ? nextAt.toISOString() : null,
  };
  const change = healthChange(endpoint, succeeded, outcome.duration_ms, now);
  const { disabled } = await deps.webhookOutbox.recordAttempt(attempt, change);

  if (nextAt && delay !== undefined) {
    // A retry follows a failure: the endpoint is failing, so the retry goes to the failing lane.
    const next: WebhookDeliveryMessage = { ...message, attempt: message.attempt + 1 };
    if (delay <= MAX_QUEUE_DELAY_SECONDS) await deps.queue.send(LANE_QUEUE.failing, next, { delaySeconds: delay });
    else
      await deps.scheduler.scheduleAt(
        nextAt,
        LANE_QUEUE.failing,
        next,
        `webhook-${next.client_id}-${next.webhook_id}-${next.message_id}-${attempt.id}`,
      );
  }
  if (disabled && change.kind === 'disable') await tellDisabled(deps, endpoint, change.since);
  if (succeeded) return { kind: 'delivered', attempt };
  if (nextAt) return { kind: 'retrying', attempt };
  return { kind: 'failed', attempt, disabled };
}

/**
 * E-mails the client that its endpoint was disabled, then clears the endpoint's `disabled_notice_pending`. If the mail
 * throws, the flag stays and the delivery throws: SQS brings it back, it finds the endpoint disabled and owed a
 * notice, and sends it then (at least once; twice only if the clearing write failed after the mail went out).
 */
async function tellDisabled(deps: DeliverDeps, endpoint: WebhookRecord, failingSince: string): Promise<void> {
  const client = await deps.clients.get(endpoint.client_id);
  if (client) await deps.clientNotices.webhookDisabled(client, endpoint, failingSince);
  await deps.webhookOutbox.disabledNoticeSent(endpoint.client_id, endpoint.id);
}

function healthChange(
  endpoint: WebhookRecord,
  succeeded: boolean,
  durationMs: number,
  now: Date,
): EndpointHealthChange {
  if (succeeded) {
    const slow = durationMs > SLOW_SUCCESS_MS;
    // Only a change of pace is written: the first slow success, the first fast one after slow ones.
    const slowSince =
      slow && !endpoint.slow_since ? now.toISOString() : !slow && endpoint.slow_since ? null : undefined;
    if (endpoint.failing_since)
      return slowSince === undefined ? { kind: 'recovered' } : { kind: 'recovered', slowSince };
    return slowSince === undefined ? { kind: 'none' } : { kind: 'pace', slowSince };
  }
  if (!endpoint.failing_since) return { kind: 'failing', since: now.toISOString() };
  if (now.getTime() - Date.parse(endpoint.failing_since) >= WEBHOOK_DISABLE_AFTER_MS) {
    return { kind: 'disable', since: endpoint.failing_since, at: now.toISOString() };
  }
  return { kind: 'none' };
}

export { WEBHOOK_MAX_ATTEMPTS };
