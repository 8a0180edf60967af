import type { WebhookEventType } from './event-types.js';

/** At most this many endpoints per client; the store enforces it with the create. */
export const MAX_WEBHOOKS_PER_CLIENT = 10;

/** How long a rotated-out secret keeps signing beside the new one. */
export { WEBHOOK_SECRET_OVERLAP_MS as SECRET_OVERLAP_MS } from '../../public/webhook-rules.js';

/** The editable settings of an endpoint. `event_types` null: every event type. */
export interface WebhookSettings {
  url: string;
  description: string;
  event_types: WebhookEventType[] | null;
  enabled: boolean;
  /** Opens and clicks made by machines (bot detection) are not sent to this endpoint. */
  humans_only: boolean;
}

/**
 * A stored endpoint. The signing secrets are kept (a secret must be usable to sign); the table is encrypted at rest
 * and no response shows them again after creation or rotation.
 */
export interface WebhookRecord extends WebhookSettings {
  id: number;
  client_id: number;
  /** `whsec_` + base64 of 32 random bytes. */
  secret: string;
  /** The secret rotated out, signing beside `secret` until `previous_secret_expires_at`. */
  previous_secret?: string;
  previous_secret_expires_at?: string;
  /** Set by the first failed attempt after a success, cleared by the next success. */
  failing_since?: string;
  /**
   * Set by a success slower than SLOW_SUCCESS_MS, cleared by the next fast one: a slow endpoint holds a worker per
   * delivery, so its deliveries go to the degraded lane beside the failing ones.
   */
  slow_since?: string;
  /** `failing`: disabled after failing every attempt for WEBHOOK_DISABLE_AFTER_MS; cleared when re-enabled. */
  disabled_reason?: 'failing';
  /**
   * Set with the auto-disable, in the same write; removed once the client's e-mail about it went out (or the endpoint
   * was enabled again). While set, any delivery of the endpoint sends the e-mail again: a notice that failed is never lost.
   */
  disabled_notice_pending?: boolean;
  created_at: string;
  updated_at: string;
}

export type WebhookChanges = Partial<WebhookSettings>;

export interface WebhookStore {
  /** One of the client's endpoints; undefined when the client has none with this id. */
  get(clientId: number, webhookId: number): Promise<WebhookRecord | undefined>;
  /** Every endpoint of the client, by id. */
  list(clientId: number): Promise<WebhookRecord[]>;
  /** Stores the endpoint unless the client already has `max`; `limit` then, and nothing is written. */
  create(webhook: WebhookRecord, max: number): Promise<'created' | 'limit'>;
  /** Applies the changes; undefined when the endpoint does not exist. */
  update(clientId: number, webhookId: number, changes: WebhookChanges, at: string): Promise<WebhookRecord | undefined>;
  /**
   * Makes `secret` the signing secret and the current one the previous secret until `previousExpiresAt`, in one
   * write (an older previous secret is dropped); undefined when the endpoint does not exist.
   */
  rotateSecret(
    clientId: number,
    webhookId: number,
    secret: string,
    previousExpiresAt: string,
    at: string,
  ): Promise<WebhookRecord | undefined>;
  /** Removes the endpoint; false when it did not exist. */
  delete(clientId: number, webhookId: number): Promise<boolean>;
}
