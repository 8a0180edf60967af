/**
 * Event counters: which distinct `{type, conditions}` a client's segments count per contact (the specs), how many
 * newest event times each keeps, and the counters' new values when an event is processed. Pure.
 *
 * "At least N events within D days" holds exactly when the N-th newest event is younger than D days, so keeping the
 * newest K times (K the largest N a windowed condition needs) answers every window exactly, and also says when the
 * answer will change (next-edge.ts). The all-time count answers the conditions without a window.
 */
import { createHash } from 'node:crypto';
import { type ConditionEvent, conditionsHold } from '../../journeys/definition/conditions.js';
import { canonicalSpec } from './canonical.js';
import type {
  CompiledSegment,
  ContactCounters,
  EventCountOp,
  EngagementSource,
  EventSpec,
  SegmentCondition,
  SegmentDefinition,
  SegmentEventCondition,
  SegmentIndexBody,
} from './types.js';

type EventCountCondition = Extract<SegmentCondition, { on: 'event_count' }>;

/** The first 8 hex digits of the sha256 of the counter's canonical text (canonical.ts). */
export function specIdOf(spec: { type: string; conditions?: readonly SegmentEventCondition[] }): string {
  return createHash('sha256').update(canonicalSpec(spec.type, spec.conditions)).digest('hex').slice(0, 8);
}

// A leaf is read at every evaluation of every contact: its id is hashed once per definition object.
const leafSpecIds = new WeakMap<object, string>();

/** The spec id an event_count condition reads. */
export function leafSpecId(condition: EventCountCondition): string {
  let id = leafSpecIds.get(condition);
  if (id === undefined) {
    id = specIdOf({ type: condition.event, ...(condition.conditions ? { conditions: condition.conditions } : {}) });
    leafSpecIds.set(condition, id);
  }
  return id;
}

/**
 * How many newest times a windowed condition needs: at least N needs the N-th; at most N and exactly N need the
 * (N+1)-th too (whether one more than N is in the window).
 */
export const timesNeeded = (op: EventCountOp, count: number): number => (op === 'at_least' ? count : count + 1);

/** Every event_count condition of a definition, with its place. */
export function eventCountLeaves(
  definition: SegmentDefinition,
): { condition: EventCountCondition; group: number; index: number }[] {
  return definition.groups.flatMap((group, g) =>
    group.conditions.flatMap((condition, index) =>
      condition.on === 'event_count' ? [{ condition, group: g, index }] : [],
    ),
  );
}

/** The distinct spec ids a definition reads. */
export function specIdsOf(definition: SegmentDefinition): Set<string> {
  return new Set(eventCountLeaves(definition).map(({ condition }) => leafSpecId(condition)));
}

/** A source's key: `B<broadcast id>` or `J<journey id>` (its engagement item is `ENG#<key>` beside the contact). */
export const engagementSourceKey = (source: EngagementSource): string =>
  'broadcast_id' in source ? `B${source.broadcast_id}` : `J${source.journey_id}`;

/**
 * The watched name of a source's engagement item: a change of that item routes its contact (a contact attribute
 * never has this name, so the contact's own changes never match it).
 */
export const engagementWatch = (key: string): string => `eng:${key}`;

/** The distinct source keys the definitions' engagement conditions name, in a stable order. */
export function engagementSourcesOf(definitions: readonly SegmentDefinition[]): string[] {
  const keys = new Set<string>();
  for (const definition of definitions)
    for (const group of definition.groups)
      for (const c of group.conditions) if (c.on === 'engagement' && c.source) keys.add(engagementSourceKey(c.source));
  return [...keys].sort();
}

/**
 * The contact attributes whose change can move a contact in or out of a segment with these conditions: the change
 * router sends a contact to evaluation only when one of these differs (or the contact is created or removed, or its
 * counters change). `timezone` is always there: a member entry carries the contact's send zone.
 */
export function watchedOf(definitions: readonly SegmentDefinition[]): string[] {
  const watched = new Set<string>(definitions.length > 0 ? ['timezone'] : []);
  for (const definition of definitions)
    for (const group of definition.groups)
      for (const c of group.conditions) {
        switch (c.on) {
          case 'contact':
            watched.add(c.field);
            break;
          case 'custom_field':
            watched.add('custom_fields');
            break;
          case 'tag':
            watched.add('tags');
            break;
          case 'topic':
            // Leaving all marketing mail leaves every topic.
            watched.add(`topic_${c.topic_id}`);
            watched.add('is_subscribed');
            break;
          case 'subscription':
            watched.add('is_subscribed');
            watched.add('unsubscribe_reason');
            break;
          case 'date':
            watched.add(c.field);
            break;
          case 'event_count':
            break;
          case 'engagement':
            if (c.source) {
              watched.add(engagementWatch(engagementSourceKey(c.source)));
              // A journey's sends are the contact's `sent_w<journey>` (a broadcast's: its engagement item).
              if (c.op === 'not_opened' && 'journey_id' in c.source) watched.add(`sent_w${c.source.journey_id}`);
            } else if (c.op === 'never_opened') watched.add('total_emails_opened');
            else if (c.within_days === undefined)
              watched.add(c.op === 'human_opened' ? 'total_emails_opened' : 'total_emails_clicked');
            else watched.add(c.op === 'human_opened' ? 'last_email_opened_at' : 'last_email_clicked_at');
            break;
        }
      }
  return [...watched].sort();
}

/**
 * The SEGMENTINDEX body of a client's segments (each at its current version): the trees, every distinct event counter
 * with the newest times it keeps (`k`, at least 1) and its longest window, and the watched contact attributes.
 * Segments and specs in a stable order, so the same segments compile to the same body.
 */
export function compileIndex(segments: readonly CompiledSegment[]): SegmentIndexBody {
  const specs = new Map<string, EventSpec>();
  for (const segment of segments)
    for (const { condition } of eventCountLeaves(segment.definition)) {
      const id = leafSpecId(condition);
      const spec = specs.get(id) ?? {
        id,
        type: condition.event,
        conditions: condition.conditions ?? [],
        k: 1,
      };
      if (condition.within_days !== undefined) {
        spec.k = Math.max(spec.k, timesNeeded(condition.op, condition.count));
        spec.max_days = Math.max(spec.max_days ?? 0, condition.within_days);
      }
      specs.set(id, spec);
    }
  const ordered = [...segments].sort((a, b) => a.id - b.id);
  return {
    segments: ordered.map(({ id, version, definition }) => ({ id, version, definition })),
    specs: [...specs.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    watched: watchedOf(ordered.map((s) => s.definition)),
  };
}

/** An event's time as the counters keep it: whole seconds since the epoch (undefined when it is no instant). */
export function counterTimeOf(ts: string): number | undefined {
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * The counters after `event`, from the ones read (`read`, absent: none kept yet): for each spec the event meets (its
 * type, and its conditions on the event's values), the event's time placed among the newest (newest first, at most
 * the spec's `k`: an event older than all kept ones only raises the count) and the count raised by one; `ev_v` raised
 * by one. Specs no segment reads any more are dropped, and kept times beyond a lowered `k` trimmed. Undefined when the
 * event meets no spec: nothing to write.
 */
export function counterUpdateOf(
  index: Pick<SegmentIndexBody, 'specs'>,
  event: ConditionEvent,
  read: ContactCounters | undefined,
): ContactCounters | undefined {
  const matching = new Set(
    index.specs
      .filter((spec) => spec.type === event.type && conditionsHold(spec.conditions, { event }))
      .map((spec) => spec.id),
  );
  if (matching.size === 0) return undefined;
  const at = counterTimeOf(event.ts);
  const recent: Record<string, number[]> = {};
  const total: Record<string, number> = {};
  for (const spec of index.specs) {
    let times = [...(read?.recent[spec.id] ?? [])];
    let count = read?.total[spec.id] ?? 0;
    if (matching.has(spec.id)) {
      count += 1;
      if (at !== undefined) times.push(at);
    }
    times = times.sort((a, b) => b - a).slice(0, spec.k);
    if (times.length > 0) recent[spec.id] = times;
    if (count > 0) total[spec.id] = count;
  }
  return { ev_v: (read?.ev_v ?? 0) + 1, recent, total };
}
