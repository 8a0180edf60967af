/**
 * How a journey's conditions read their inputs: the event (the trigger's, or the awaited one), the contact, its topic
 * choices, the human engagement with the run's earlier e-mails and its segment memberships. Pure: the caller reads everything first.
 */
import type { ContactRecord } from '../../contacts/contact-store.js';
import type { ExecutionEventVars } from '../../executions/execution-record.js';
import { subscribedToTopic } from '../../topics/contact-topics.js';
import type { TopicSet } from '../../topics/topic-store.js';
import type {
  Condition,
  ConditionValue,
  ContactConditionField,
  JourneyTrigger,
  PropertyPath,
  ValueOp,
} from './types.js';

/** An event as conditions read it: its own fields, and the body as it was sent (`payload`). */
export type ConditionEvent = ExecutionEventVars & { payload?: Record<string, unknown> };

/** What a condition may read; a condition whose input is absent does not hold (but see `neither`). */
export interface ConditionInput {
  event?: ConditionEvent;
  contact?: ContactRecord;
  topics?: TopicSet;
  /** By send step id: the human opens and clicks of the e-mail that step sent in this run. */
  engagement?: Readonly<Record<string, { opened: boolean; clicked: boolean }>>;
  /**
   * By segment id: whether the contact is in it (false for a segment deleted since, or one it never entered), for the
   * segments a branch names: read with the run, not for every condition.
   */
  segments?: Readonly<Record<number, boolean>>;
}

/** The event's own fields a path names directly (anything else bare is a member of `payload`). */
export const EVENT_FIELDS = ['type', 'ts', 'action', 'feature', 'plan', 'amount', 'upgrade'] as const;
const EVENT_FIELD_SET: ReadonlySet<string> = new Set(EVENT_FIELDS);

/** Fields that hold timestamps: ordered as instants, not as text. */
const DATE_FIELDS: ReadonlySet<string> = new Set([
  'created_at',
  'last_activity_at',
  'last_purchase_at',
  'last_email_opened_at',
]);

const own = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;

/**
 * The value at `path` in the event: one of its own fields (`type`, `ts`, `action`, `feature`, `plan`, `amount`,
 * `upgrade`), `metadata.a.b` / `payload.a.b`, or a bare name read as `payload.<name>`. Undefined when any step of the
 * way is missing (only own members are read: `__proto__` or `constructor` name nothing).
 */
export function readEventPath(event: ConditionEvent | undefined, path: PropertyPath): unknown {
  if (event === undefined) return undefined;
  if (EVENT_FIELD_SET.has(path)) return own(event, path);
  const [root, ...rest] = path.split('.');
  if ((root === 'metadata' || root === 'payload') && rest.length > 0)
    return rest.reduce<unknown>((value, segment) => own(value, segment), own(event, root));
  return own(event.payload, path);
}

/**
 * Whether every condition holds (an empty or absent list holds).
 *
 * Comparisons are typed: a number compares as a number (a numeric string read from an event or a custom field counts
 * as its number when compared with one); a timestamp field (`ts`, a contact's `created_at` and `last_*_at`) orders as
 * an instant; other strings compare exactly, case-sensitively, and order by their characters. `contains` finds a
 * substring in a string or an item in a list. `neq` and `not_in` hold on an absent value (it differs from every
 * value); `eq`, `in`, the orderings and `contains` need one. A condition whose input is missing (no event, no contact,
 * no engagement recorded for the send step, no membership read) does not hold, except `neither`: a send with no
 * engagement recorded was neither opened nor clicked.
 */
export function conditionsHold(conditions: readonly Condition[] | undefined, input: ConditionInput): boolean {
  return (conditions ?? []).every((c) => conditionHolds(c, input));
}

export function conditionHolds(condition: Condition, input: ConditionInput): boolean {
  switch (condition.on) {
    case 'event':
      if (input.event === undefined) return false;
      return compare(
        readEventPath(input.event, condition.path),
        condition.op,
        condition.value,
        condition.path === 'ts',
      );
    case 'contact':
      if (input.contact === undefined) return false;
      return compare(
        contactField(input.contact, condition.field),
        condition.op,
        condition.value,
        DATE_FIELDS.has(condition.field),
      );
    case 'custom_field': {
      if (input.contact === undefined) return false;
      const field = own(input.contact.custom_fields, condition.name) as { value?: unknown } | undefined;
      return compare(field?.value, condition.op, condition.value, false);
    }
    case 'tag': {
      if (input.contact === undefined) return false;
      const has = (input.contact.tags ?? []).includes(condition.tag);
      return condition.op === 'has' ? has : !has;
    }
    case 'topic': {
      const topic = input.topics?.topics.find((t) => t.id === condition.topic_id);
      // A topic deleted meanwhile, or topics not read: nothing to say about it.
      if (input.contact === undefined || topic === undefined) return false;
      // Leaving all marketing mail leaves every topic, as the send path reads it.
      const subscribed = input.contact.is_subscribed && subscribedToTopic(input.contact, topic);
      return condition.op === 'subscribed' ? subscribed : !subscribed;
    }
    case 'engagement': {
      const engagement = input.engagement?.[condition.send_step];
      if (condition.op === 'neither') return engagement === undefined || (!engagement.opened && !engagement.clicked);
      if (engagement === undefined) return false;
      return condition.op === 'human_opened' ? engagement.opened : engagement.clicked;
    }
    case 'segment': {
      // Not read (a condition outside a branch, which validation refuses): nothing to say about it.
      const member = input.segments?.[condition.segment_id];
      if (member === undefined) return false;
      return condition.op === 'member' ? member : !member;
    }
  }
}

const contactField = (contact: ContactRecord, field: ContactConditionField): unknown => own(contact, field);

const present = (value: unknown): boolean => value !== undefined && value !== null;

/** `actual op expected`, typed as conditionsHold describes. */
export function compare(actual: unknown, op: ValueOp, expected: ConditionValue | undefined, isDate: boolean): boolean {
  switch (op) {
    case 'exists':
      return present(actual);
    case 'not_exists':
      return !present(actual);
    case 'eq':
      return present(actual) && equal(actual, expected, isDate);
    case 'neq':
      return !present(actual) || !equal(actual, expected, isDate);
    case 'in':
      return present(actual) && listOf(expected).some((e) => equal(actual, e, isDate));
    case 'not_in':
      return !present(actual) || !listOf(expected).some((e) => equal(actual, e, isDate));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const order = ordering(actual, expected, isDate);
      if (order === undefined) return false;
      if (op === 'gt') return order > 0;
      if (op === 'gte') return order >= 0;
      if (op === 'lt') return order < 0;
      return order <= 0;
    }
    case 'contains':
      if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
      if (Array.isArray(actual)) return actual.some((item) => equal(item, expected, false));
      return false;
  }
}

const listOf = (value: ConditionValue | undefined): readonly (string | number | boolean)[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value as string | number | boolean];

/** A number, or a string that is exactly a finite number (`"12.5"`), as a number. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function equal(actual: unknown, expected: unknown, isDate: boolean): boolean {
  if (isDate) {
    const a = instantOf(actual);
    const b = instantOf(expected);
    if (a !== undefined && b !== undefined) return a === b;
  }
  if (typeof expected === 'number') {
    const a = numberOf(actual);
    return a !== undefined && a === expected;
  }
  if (typeof actual === 'number' && typeof expected === 'string') {
    const b = numberOf(expected);
    return b !== undefined && b === actual;
  }
  return actual === expected;
}

/** Negative, zero or positive; undefined when the two cannot be ordered (a boolean, a list, text against a number). */
function ordering(actual: unknown, expected: unknown, isDate: boolean): number | undefined {
  if (isDate) {
    const a = instantOf(actual);
    const b = instantOf(expected);
    return a !== undefined && b !== undefined ? Math.sign(a - b) : undefined;
  }
  if (typeof expected === 'number' || typeof actual === 'number') {
    const a = numberOf(actual);
    const b = numberOf(expected);
    return a !== undefined && b !== undefined ? Math.sign(a - b) : undefined;
  }
  if (typeof actual === 'string' && typeof expected === 'string')
    return actual < expected ? -1 : actual > expected ? 1 : 0;
  return undefined;
}

/**
 * Whether an event starts a run of a journey with this trigger (before re-entry and limits): its type is the trigger's
 * and the trigger's conditions hold, or (any type) the `or_when` conditions all hold.
 */
export function eventMatchesTrigger(
  trigger: JourneyTrigger,
  event: ConditionEvent,
  contact: ContactRecord | undefined,
  topics?: TopicSet,
): boolean {
  const input: ConditionInput = { event, ...(contact ? { contact } : {}), ...(topics ? { topics } : {}) };
  // A segment trigger is met by the membership engine's own event only (plan-entries tells it apart by origin).
  if (trigger.segment !== undefined) return false;
  if (event.type === trigger.event && conditionsHold(trigger.conditions, input)) return true;
  return trigger.or_when !== undefined && trigger.or_when.length > 0 && conditionsHold(trigger.or_when, input);
}
