import type {
  ClientRef,
  EndpointHealthChange,
  EventFacts,
  SentEmailFacts,
  WebhookAttemptRecord,
  WebhookMessageRecord,
  WebhookOutbox,
} from '../../domain/webhooks/webhook-outbox.js';
import type { WebhookRecord } from '../../domain/webhooks/webhook-store.js';
import type { MemoryWebhookStore } from './webhook-store.js';

const copy = <T>(value: T): T => structuredClone(value);

/** WebhookOutbox in memory, over the memory endpoint store: the DynamoDB adapter's contract (tests, benchmarks). */
export class MemoryWebhookOutbox implements WebhookOutbox {
  readonly messages = new Map<string, WebhookMessageRecord>();
  readonly attemptLog: WebhookAttemptRecord[] = [];
  /** Context records the payloads may name, by `<client>:<id>`. */
  readonly sentEmailFacts = new Map<string, SentEmailFacts>();
  readonly eventFacts = new Map<string, EventFacts>();

  constructor(private readonly webhooks: MemoryWebhookStore) {}

  async endpointsOf(clientId: number): Promise<WebhookRecord[]> {
    return this.webhooks.list(clientId);
  }

  async sentEmails(refs: readonly ClientRef<string>[]): Promise<SentEmailFacts[]> {
    return refs.flatMap((r) => {
      const found = this.sentEmailFacts.get(`${r.client_id}:${r.id}`);
      return found ? [copy(found)] : [];
    });
  }

  async events(refs: readonly ClientRef<number>[]): Promise<EventFacts[]> {
    return refs.flatMap((r) => {
      const found = this.eventFacts.get(`${r.client_id}:${r.id}`);
      return found ? [copy(found)] : [];
    });
  }

  /** Tombstones of erased contacts, by `<client>:<contact>` → when. */
  readonly erased = new Map<string, string>();

  async erasedContacts(refs: readonly ClientRef<number>[]): Promise<Map<string, string>> {
    return new Map(
      refs.flatMap((r) => {
        const at = this.erased.get(`${r.client_id}:${r.id}`);
        return at ? [[`${r.client_id}:${r.id}`, at] as const] : [];
      }),
    );
  }

  async putMessages(messages: readonly WebhookMessageRecord[]): Promise<void> {
    for (const m of messages) this.messages.set(`${m.client_id}:${m.id}`, copy(m));
  }

  async message(clientId: number, messageId: string): Promise<WebhookMessageRecord | undefined> {
    const found = this.messages.get(`${clientId}:${messageId}`);
    return found && copy(found);
  }

  async recordAttempt(attempt: WebhookAttemptRecord, change: EndpointHealthChange): Promise<{ disabled: boolean }> {
    this.attemptLog.push(copy(attempt));
    const endpoint = this.webhooks.webhooks.get(`${attempt.client_id}#${attempt.webhook_id}`);
    if (!endpoint) return { disabled: false };
    switch (change.kind) {
      case 'failing':
        endpoint.failing_since ??= change.since;
        return { disabled: false };
      case 'recovered':
        delete endpoint.failing_since;
        applyPace(endpoint, change.slowSince);
        return { disabled: false };
      case 'pace':
        applyPace(endpoint, change.slowSince);
        return { disabled: false };
      case 'disable':
        if (!endpoint.enabled || endpoint.failing_since !== change.since) return { disabled: false };
        Object.assign(endpoint, {
          enabled: false,
          disabled_reason: 'failing',
          disabled_notice_pending: true,
          updated_at: change.at,
        });
        return { disabled: true };
      default:
        return { disabled: false };
    }
  }

  async disabledNoticeSent(clientId: number, webhookId: number): Promise<void> {
    const endpoint = this.webhooks.webhooks.get(`${clientId}#${webhookId}`);
    if (endpoint) delete endpoint.disabled_notice_pending;
  }

  async attempts(clientId: number, webhookId: number, page: { limit: number; before?: string }) {
    const mine = this.attemptLog
      .filter(
        (a) =>
          a.client_id === clientId && a.webhook_id === webhookId && (page.before === undefined || a.id < page.before),
      )
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    return { attempts: mine.slice(0, page.limit).map(copy), more: mine.length > page.limit };
  }

  async attempt(clientId: number, webhookId: number, attemptId: string): Promise<WebhookAttemptRecord | undefined> {
    const found = this.attemptLog.find(
      (a) => a.client_id === clientId && a.webhook_id === webhookId && a.id === attemptId,
    );
    return found && copy(found);
  }

  /** Replays counted per attempt (`client:webhook:attempt`) and per endpoint window (`client:webhook:start`). */
  readonly replayCounts = new Map<string, number>();

  async claimReplay(
    clientId: number,
    webhookId: number,
    attemptId: string,
    caps: { perAttempt: number; perWindow: number; window: { startsAt: number } },
  ): Promise<'claimed' | 'attempt_cap' | 'endpoint_cap'> {
    const attemptKey = `${clientId}:${webhookId}:${attemptId}`;
    const windowKey = `${clientId}:${webhookId}:@${caps.window.startsAt}`;
    const ofAttempt = this.replayCounts.get(attemptKey) ?? 0;
    const ofWindow = this.replayCounts.get(windowKey) ?? 0;
    if (ofAttempt >= caps.perAttempt) return 'attempt_cap';
    if (ofWindow >= caps.perWindow) return 'endpoint_cap';
    this.replayCounts.set(attemptKey, ofAttempt + 1);
    this.replayCounts.set(windowKey, ofWindow + 1);
    return 'claimed';
  }
}

/** `slow_since` set (a string), removed (null) or left (undefined). */
function applyPace(endpoint: { slow_since?: string }, slowSince: string | null | undefined): void {
  if (slowSince === null) delete endpoint.slow_since;
  else if (slowSince !== undefined) endpoint.slow_since ??= slowSince;
}
