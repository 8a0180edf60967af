import type { BatchMessage, Queue } from '../../platform.js';
import { isBotFact, type WebhookFact } from './facts.js';
import type { ClientRef, WebhookMessageRecord, WebhookOutbox } from './webhook-outbox.js';
import { buildWebhookMessage } from './webhook-payloads.js';
import type { WebhookRecord } from './webhook-store.js';

/** Whether an endpoint takes a fact: enabled, subscribed to its type (null: all), and not a bot's if humans only. */
export const endpointTakes = (endpoint: WebhookRecord, fact: WebhookFact): boolean =>
  endpoint.enabled &&
  (endpoint.event_types === null || endpoint.event_types.includes(fact.type)) &&
  !(endpoint.humans_only && isBotFact(fact));

export interface ProduceOutcome {
  facts: number;
  messages: number;
  deliveries: number;
}

/**
 * The facts of one stream batch → webhook messages and their first deliveries. A client without an
 * endpoint that takes a fact costs nothing beyond the (cached) endpoint read. Otherwise, per batch: one wave reading
 * the sent e-mails named (and, for contact and journey facts, their contacts' erasure tombstones), one reading the triggering events, one BatchWriteItem wave storing the messages, then one
 * SendMessageBatch wave with a delivery per (message, endpoint). Throws when any of it fails, so the stream hands the
 * batch over again: messages keep their ids, so a retried batch stores the same messages and a receiver can
 * de-duplicate a repeated delivery by its `webhook-id`.
 */
export async function produceWebhooks(
  deps: { webhookOutbox: WebhookOutbox; queue: Queue },
  facts: readonly WebhookFact[],
): Promise<ProduceOutcome> {
  const outbox = deps.webhookOutbox;
  const clients = [...new Set(facts.map((f) => f.client_id))];
  const endpointLists = await Promise.all(clients.map((client) => outbox.endpointsOf(client)));
  const endpointsByClient = new Map(clients.map((client, i) => [client, endpointLists[i]!]));

  const wanted = facts
    .map((fact) => ({
      fact,
      endpoints: (endpointsByClient.get(fact.client_id) ?? []).filter((e) => endpointTakes(e, fact)),
    }))
    .filter((w) => w.endpoints.length > 0);
  if (wanted.length === 0) return { facts: facts.length, messages: 0, deliveries: 0 };

  const sentRefs = unique(
    wanted.flatMap(({ fact }) =>
      fact.kind === 'email' ? [{ client_id: fact.client_id, id: fact.sent_email_id }] : [],
    ),
    (r) => `${r.client_id}:${r.id}`,
  );
  // A contact fact's values come from the stream's image: one read in the same wave tells whether it was erased since.
  const contactRefs = unique(
    wanted.flatMap(({ fact }) =>
      fact.kind === 'contact'
        ? [{ client_id: fact.client_id, id: fact.contact.id }]
        : fact.kind === 'journey' && !fact.run.erased
          ? [{ client_id: fact.client_id, id: fact.run.contact_id }]
          : [],
    ),
    (r) => `${r.client_id}:${r.id}`,
  );
  const [sentEmails, erasedContacts] = await Promise.all([
    sentRefs.length > 0 ? outbox.sentEmails(sentRefs) : [],
    contactRefs.length > 0 ? outbox.erasedContacts(contactRefs) : new Map<string, string>(),
  ]);
  const sentById = new Map(sentEmails.map((s) => [`${s.client_id}:${s.id}`, s]));

  const eventIdOf = (fact: WebhookFact): number | null | undefined =>
    fact.kind === 'execution'
      ? fact.execution.event_id
      : fact.kind === 'email'
        ? sentById.get(`${fact.client_id}:${fact.sent_email_id}`)?.event_id
        : fact.kind === 'journey' && fact.type === 'journey.entered'
          ? fact.run.event_id
          : undefined;
  const eventRefs = unique(
    wanted.flatMap(({ fact }) => {
      const id = eventIdOf(fact);
      return typeof id === 'number' ? [{ client_id: fact.client_id, id }] : [];
    }),
    (r: ClientRef<number>) => `${r.client_id}:${r.id}`,
  );
  const events = eventRefs.length > 0 ? await outbox.events(eventRefs) : [];
  const eventById = new Map(events.map((e) => [`${e.client_id}:${e.id}`, e]));

  const messages: WebhookMessageRecord[] = [];
  const deliveries: BatchMessage<'webhooks'>[] = [];
  for (const { fact, endpoints } of wanted) {
    const eventId = eventIdOf(fact);
    // A run's image without its trigger event was written by the erasure itself: ids only, as of that write.
    const erasedAt =
      fact.kind === 'contact'
        ? erasedContacts.get(`${fact.client_id}:${fact.contact.id}`)
        : fact.kind === 'journey'
          ? fact.run.erased
            ? fact.run.updated_at
            : erasedContacts.get(`${fact.client_id}:${fact.run.contact_id}`)
          : undefined;
    const message = buildWebhookMessage(fact, {
      ...(fact.kind === 'email' ? { sentEmail: sentById.get(`${fact.client_id}:${fact.sent_email_id}`) } : {}),
      ...(erasedAt ? { contactErasedAt: erasedAt } : {}),
      ...(typeof eventId === 'number' ? { event: eventById.get(`${fact.client_id}:${eventId}`) } : {}),
    });
    messages.push(message);
    for (const endpoint of endpoints) {
      deliveries.push({
        message: { client_id: fact.client_id, webhook_id: endpoint.id, message_id: message.id, attempt: 1 },
      });
    }
  }
  await outbox.putMessages(unique(messages, (m) => m.id));
  await deps.queue.sendBatch('webhooks', deliveries);
  return { facts: facts.length, messages: messages.length, deliveries: deliveries.length };
}

function unique<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(keyOf(item))) seen.set(keyOf(item), item);
  return [...seen.values()];
}
