import type { WebhookChanges, WebhookRecord, WebhookStore } from '../../domain/webhooks/webhook-store.js';

const copy = <T>(value: T): T => structuredClone(value);
const keyOf = (clientId: number, webhookId: number): string => `${clientId}#${webhookId}`;

/** WebhookStore in memory: the same contract as the DynamoDB adapter (the limit counts the client's endpoints). */
export class MemoryWebhookStore implements WebhookStore {
  readonly webhooks = new Map<string, WebhookRecord>();

  async get(clientId: number, webhookId: number): Promise<WebhookRecord | undefined> {
    const found = this.webhooks.get(keyOf(clientId, webhookId));
    return found && copy(found);
  }

  async list(clientId: number): Promise<WebhookRecord[]> {
    return [...this.webhooks.values()]
      .filter((w) => w.client_id === clientId)
      .sort((a, b) => a.id - b.id)
      .map(copy);
  }

  async create(webhook: WebhookRecord, max: number): Promise<'created' | 'limit'> {
    if ((await this.list(webhook.client_id)).length >= max) return 'limit';
    const k = keyOf(webhook.client_id, webhook.id);
    if (this.webhooks.has(k)) throw new Error(`webhook ${webhook.id} exists`);
    this.webhooks.set(k, copy(webhook));
    return 'created';
  }

  async update(
    clientId: number,
    webhookId: number,
    changes: WebhookChanges,
    at: string,
  ): Promise<WebhookRecord | undefined> {
    const stored = this.webhooks.get(keyOf(clientId, webhookId));
    if (!stored) return undefined;
    for (const [field, value] of Object.entries(changes))
      if (value !== undefined) Object.assign(stored, { [field]: copy(value) });
    // Enabling an endpoint starts its health afresh (as the DynamoDB adapter's REMOVE does).
    if (changes.enabled === true) {
      delete stored.failing_since;
      delete stored.disabled_reason;
      delete stored.disabled_notice_pending;
    }
    stored.updated_at = at;
    return copy(stored);
  }

  async rotateSecret(
    clientId: number,
    webhookId: number,
    secret: string,
    previousExpiresAt: string,
    at: string,
  ): Promise<WebhookRecord | undefined> {
    const stored = this.webhooks.get(keyOf(clientId, webhookId));
    if (!stored) return undefined;
    Object.assign(stored, {
      previous_secret: stored.secret,
      secret,
      previous_secret_expires_at: previousExpiresAt,
      updated_at: at,
    });
    return copy(stored);
  }

  async delete(clientId: number, webhookId: number): Promise<boolean> {
    return this.webhooks.delete(keyOf(clientId, webhookId));
  }
}
