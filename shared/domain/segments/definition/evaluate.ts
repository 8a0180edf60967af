/**
 * Whether a contact is a member of a segment at an instant. Pure: the caller reads the contact, its counters and the
 * client's topics first. Dates are instants (UTC), compared to the millisecond; a window of N days is N × 24 hours.
 *
 * The leaves shared with the journeys (contact, custom_field, tag, topic) are read by the journeys' own
 * `conditionHolds`, so a condition means the same in both.
 */
import type { ContactRecord } from '../../contacts/contact-store.js';
import { isSuppressionReason } from '../../contacts/suppression.js';
import { conditionHolds } from '../../journeys/definition/conditions.js';
import { engagementSourceKey, leafSpecId } from './specs.js';
import type {
  ContactCounters,
  EngagementFacts,
  EngagementSource,
  SegmentCondition,
  SegmentDateField,
  SegmentDefinition,
  SegmentGroup,
  SegmentInput,
  SegmentMatch,
} from './types.js';

export const DAY_MS = 86_400_000;

/** Whether the definition's groups hold, joined by its `match`. */
export function segmentHolds(definition: SegmentDefinition, input: SegmentInput, now: Date): boolean {
  return joined(definition.match, definition.groups, (group) => groupHolds(group, input, now));
}

export function groupHolds(group: SegmentGroup, input: SegmentInput, now: Date): boolean {
  return joined(group.match, group.conditions, (condition) => segmentConditionHolds(condition, input, now));
}

const joined = <T>(match: SegmentMatch, items: readonly T[], holds: (item: T) => boolean): boolean =>
  match === 'all' ? items.every(holds) : items.some(holds);

/** A contact timestamp as an instant in ms (undefined when absent or not an instant). */
export function contactInstant(contact: ContactRecord, field: SegmentDateField): number | undefined {
  const value: unknown = (contact as unknown as Record<string, unknown>)[field];
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Within the last `days`: strictly younger than `days` × 24 h (an instant in the future is within). */
const within = (at: number | undefined, days: number, now: Date): boolean =>
  at !== undefined && at > now.getTime() - days * DAY_MS;

export function segmentConditionHolds(condition: SegmentCondition, input: SegmentInput, now: Date): boolean {
  const { contact } = input;
  switch (condition.on) {
    case 'contact':
    case 'custom_field':
    case 'tag':
    case 'topic':
      return conditionHolds(condition, { contact, ...(input.topics ? { topics: input.topics } : {}) });
    case 'subscription': {
      const suppressed = isSuppressionReason(contact.unsubscribe_reason);
      if (condition.op === 'suppressed') return suppressed;
      const subscribed = contact.is_subscribed && !suppressed;
      return condition.op === 'subscribed' ? subscribed : !subscribed;
    }
    case 'date': {
      const at = contactInstant(contact, condition.field);
      switch (condition.op) {
        case 'exists':
          return at !== undefined;
        case 'not_exists':
          return at === undefined;
        case 'before':
        case 'after': {
          const bound = Date.parse(String(condition.value));
          if (at === undefined || Number.isNaN(bound)) return false;
          return condition.op === 'before' ? at < bound : at > bound;
        }
        case 'within_days':
          return within(at, Number(condition.value), now);
        case 'not_within_days':
          return !within(at, Number(condition.value), now);
      }
      return false;
    }
    case 'event_count': {
      const n = eventCount(input.counters, leafSpecId(condition), condition.within_days, now);
      if (condition.op === 'at_least') return n >= condition.count;
      if (condition.op === 'at_most') return n <= condition.count;
      return n === condition.count;
    }
    case 'engagement': {
      if (condition.source) {
        const { source } = condition;
        if (condition.op === 'not_opened')
          return sentOf(input, source) !== undefined && sourceEngagedAt(input, source, false) === undefined;
        // never_opened takes no source (the schema's rule): read as no engagement, like a missing input.
        if (condition.op === 'never_opened') return false;
        const at = sourceEngagedAt(input, source, condition.op === 'human_clicked');
        return condition.within_days === undefined ? at !== undefined : within(at, condition.within_days, now);
      }
      // not_opened needs a source (the schema's rule): without one it holds for no one.
      if (condition.op === 'not_opened') return false;
      if (condition.op === 'never_opened') return (contact.total_emails_opened ?? 0) === 0;
      const opened = condition.op === 'human_opened';
      if (condition.within_days === undefined)
        return ((opened ? contact.total_emails_opened : contact.total_emails_clicked) ?? 0) > 0;
      const field = opened ? 'last_email_opened_at' : 'last_email_clicked_at';
      return within(contactInstant(contact, field), condition.within_days, now);
    }
  }
}

const instant = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/** The contact's engagement with one source (undefined: none kept). */
export const sourceFacts = (input: SegmentInput, source: EngagementSource): EngagementFacts | undefined =>
  input.engagement?.[engagementSourceKey(source)];

/** When the contact was sent an e-mail of the source: a broadcast's first, a journey's last (`sent_w<journey>`). */
export function sentOf(input: SegmentInput, source: EngagementSource): number | undefined {
  if ('broadcast_id' in source) return instant(sourceFacts(input, source)?.sent_at);
  const value: unknown = (input.contact as unknown as Record<string, unknown>)[`sent_w${source.journey_id}`];
  return typeof value === 'string' ? instant(value) : undefined;
}

/** The instant a source's last human open / click was (undefined: none). */
export const sourceEngagedAt = (input: SegmentInput, source: EngagementSource, clicked: boolean): number | undefined =>
  instant(clicked ? sourceFacts(input, source)?.clicked_at : sourceFacts(input, source)?.opened_at);

/**
 * The events of a spec counted at `now`: all of them without a window, else the kept times younger than the window
 * (the spec keeps as many as any condition's count needs, so the count is exact up to that need).
 */
export function eventCount(
  counters: ContactCounters | undefined,
  spec: string,
  withinDays: number | undefined,
  now: Date,
): number {
  if (withinDays === undefined) return counters?.total[spec] ?? 0;
  const from = now.getTime() - withinDays * DAY_MS;
  return (counters?.recent[spec] ?? []).filter((seconds) => seconds * 1000 > from).length;
}
