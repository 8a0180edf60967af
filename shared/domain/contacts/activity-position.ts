/**
 * Where an item stands in a contact's activity timeline: newest first by `at`, then by kind (at the same instant a
 * sent e-mail shows above its execution, an execution above its event), then by id. A strict total order, so a cursor
 * holding the last item shown continues the timeline with every item exactly once.
 */
export const ACTIVITY_KINDS = ['event', 'execution', 'sent_email', 'subscription', 'topic'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface ActivityPosition {
  kind: ActivityKind;
  /** RFC 3339 UTC with milliseconds (`toISOString()`): fixed length, so the text order is the time order. */
  at: string;
  /** Events and executions: their integer id; sent e-mails: their UUID; the subscription: the contact id; a topic choice: the topic id. */
  id: number | string;
}

const rank = (kind: ActivityKind): number => ACTIVITY_KINDS.indexOf(kind);

const compareIds = (a: number | string, b: number | string): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;

/** Negative when `a` is older than `b` (shows below it), positive when newer, 0 for the same item. */
export function compareActivity(a: ActivityPosition, b: ActivityPosition): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.kind !== b.kind) return rank(a.kind) - rank(b.kind);
  return compareIds(a.id, b.id);
}

/** For `sort`: the newest first. */
export const newestFirst = (a: ActivityPosition, b: ActivityPosition): number => compareActivity(b, a);

/** Whether `kind` sorts below `other` among items of one instant. */
export const kindBelow = (kind: ActivityKind, other: ActivityKind): boolean => rank(kind) < rank(other);
