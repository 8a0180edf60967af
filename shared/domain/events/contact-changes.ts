import type { ContactRecord } from '../contacts/contact-store.js';
import type { EventRecord } from './event-record.js';

/**
 * How an event moves its contact (documented in docs/decisions/0041-event-effects-on-contacts.md):
 * - `last_activity_at` ← the event's `ts`, when later than the stored one;
 * - a purchase (`purchase`, `order_completed`, `payment_succeeded`) with an `amount` sets `last_purchase_at`;
 * - `plan` sets the tag `plan:<plan>` (replacing any other `plan:` tag);
 * - the event type sets the lifecycle stage tag `stage:<stage>` (replacing any other `stage:` tag).
 */
const PURCHASE_TYPES = new Set(['purchase', 'order_completed', 'payment_succeeded']);

const STAGE_OF_TYPE = new Map<string, string>([
  ['signup', 'signed_up'],
  ['trial_started', 'trial'],
  ['trial_ending', 'trial'],
  ['upgrade', 'customer'],
  ['purchase', 'customer'],
  ['payment_succeeded', 'customer'],
  ['payment_failed', 'at_risk'],
  ['subscription_cancelled', 'cancelled'],
  ['inactive', 'inactive'],
]);

export function lifecycleStageOf(event: Pick<EventRecord, 'type' | 'upgrade'>): string | undefined {
  return STAGE_OF_TYPE.get(event.type) ?? (event.upgrade === true ? 'customer' : undefined);
}

const withTag = (tags: string[], prefix: string, value: string | undefined): string[] =>
  value === undefined ? tags : [...tags.filter((t) => !t.startsWith(prefix)), `${prefix}${value}`];

export function contactChangesOf(contact: ContactRecord, event: EventRecord) {
  const before = contact.tags ?? [];
  const tags = withTag(withTag(before, 'plan:', event.plan || undefined), 'stage:', lifecycleStageOf(event));
  const sameTags = tags.length === before.length && tags.every((t, i) => t === before[i]);
  const later = (stored: string | undefined) => !stored || Date.parse(event.ts) > Date.parse(stored);
  return {
    tags: sameTags ? undefined : tags,
    lastPurchaseAt:
      PURCHASE_TYPES.has(event.type) && event.amount !== undefined && later(contact.last_purchase_at)
        ? event.ts
        : undefined,
    lastActivityAt: later(contact.last_activity_at) ? event.ts : undefined,
  };
}
