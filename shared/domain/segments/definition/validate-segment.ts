/**
 * Whether a segment definition may be saved, with every issue at once at its JSON path (`groups.1.conditions.0.count`),
 * where the editor shows it. Pure: the caller reads the client's topics and the event counters its other segments
 * keep first (`refs`).
 *
 * The stored-data rules read each condition on its own, so a definition with one wrong condition still hears about a
 * topic another one names.
 */
import { SEGMENT_LIMITS } from '../../../public/segment-rules.js';
import { schemaIssues } from '../../journeys/definition/validate-journey.js';
import { SEGMENT_ISSUE_CONDITIONS, SegmentConditionSchema, SegmentDefinitionSchema } from './schemas.js';
import { engagementSourceKey, leafSpecId } from './specs.js';
import type { SegmentDefinition, SegmentIssue } from './types.js';

/** The stored data a definition names. */
export interface SegmentRefs {
  /** The client's topics. */
  topicIds: ReadonlySet<number>;
  /**
   * The event counters (spec ids, specs.ts) the client's other segments read: the segment being written is left out,
   * so an edit that keeps its counters never counts them twice.
   */
  otherSpecIds: ReadonlySet<string>;
  /** The engagement sources (`B<id>`, `J<id>`) the client's other segments name (the same leaving-out). */
  otherSources?: ReadonlySet<string>;
  /** Of the sources this definition names (namedSourcesOf), those the client has: any other is a `reference` issue. */
  sources?: ReadonlySet<string>;
}

export interface SegmentValidation {
  /** The definition, when its shape is right; `issues` may still name stored-data rules. Savable only with none. */
  definition?: SegmentDefinition;
  issues: SegmentIssue[];
}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const segmentCondition = (condition: string): SegmentIssue['condition'] =>
  (SEGMENT_ISSUE_CONDITIONS as readonly string[]).includes(condition)
    ? (condition as SegmentIssue['condition'])
    : 'format';

/** Every issue of `input` as a segment definition; `refs` absent skips the rules on stored data. */
export function validateSegment(input: unknown, refs?: SegmentRefs): SegmentValidation {
  const issues: SegmentIssue[] = [];
  const faulted = new Set<string>();
  const add = (path: string, condition: SegmentIssue['condition'], error: string) => {
    if (faulted.has(path)) return;
    faulted.add(path);
    issues.push({ path, condition, error });
  };

  const bytes = sizeOf(input);
  if (bytes > SEGMENT_LIMITS.definitionBytes)
    add('', 'max', `Must be at most ${SEGMENT_LIMITS.definitionBytes} bytes as JSON (it is ${bytes})`);

  const parsed = SegmentDefinitionSchema.safeParse(input, { reportInput: true });
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      for (const i of schemaIssues(issue)) add(i.path, segmentCondition(i.condition), i.error);

  if (refs && isObject(input)) referenceIssues(input, refs, add);
  return parsed.success ? { definition: parsed.data, issues } : { issues };
}

function sizeOf(input: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(input) ?? '').length;
  } catch {
    return 0;
  }
}

type Add = (path: string, condition: SegmentIssue['condition'], error: string) => void;

/**
 * The engagement sources (`B<id>`, `J<id>`) a definition names, read as leniently as the reference rules read it
 * (each condition on its own): what the caller looks up before validating.
 */
export function namedSourcesOf(input: unknown): string[] {
  const named = new Set<string>();
  if (!isObject(input)) return [];
  for (const group of arrayOf(input['groups']).slice(0, SEGMENT_LIMITS.groups)) {
    if (!isObject(group)) continue;
    for (const raw of arrayOf(group['conditions']).slice(0, SEGMENT_LIMITS.conditionsPerGroup)) {
      const parsed = SegmentConditionSchema.safeParse(raw);
      if (parsed.success && parsed.data.on === 'engagement' && parsed.data.source)
        named.add(engagementSourceKey(parsed.data.source));
    }
  }
  return [...named].sort();
}

function referenceIssues(input: Raw, refs: SegmentRefs, add: Add): void {
  const specs = new Set(refs.otherSpecIds);
  const sources = new Set(refs.otherSources ?? []);
  const limit = SEGMENT_LIMITS.eventSpecsPerClient;
  const sourceLimit = SEGMENT_LIMITS.engagementSourcesPerClient;
  // Bounded like the schema: a definition far over the limits is not walked whole.
  for (const [g, group] of arrayOf(input['groups']).slice(0, SEGMENT_LIMITS.groups).entries()) {
    if (!isObject(group)) continue;
    for (const [i, raw] of arrayOf(group['conditions']).slice(0, SEGMENT_LIMITS.conditionsPerGroup).entries()) {
      const path = `groups.${g}.conditions.${i}`;
      const parsed = SegmentConditionSchema.safeParse(raw);
      if (!parsed.success) continue;
      const condition = parsed.data;
      if (condition.on === 'topic' && !refs.topicIds.has(condition.topic_id))
        add(`${path}.topic_id`, 'reference', `Must name one of your topics: ${condition.topic_id} is none`);
      if (condition.on === 'engagement' && condition.source) {
        const key = engagementSourceKey(condition.source);
        if (refs.sources && !refs.sources.has(key)) {
          const [field, kind, id] =
            'journey_id' in condition.source
              ? ['journey_id', 'journeys', condition.source.journey_id]
              : ['broadcast_id', 'broadcasts', condition.source.broadcast_id];
          add(`${path}.source.${field}`, 'reference', `Must name one of your ${kind}: ${id} is none`);
          continue;
        }
        if (sources.has(key)) continue;
        if (sources.size >= sourceLimit)
          add(
            `${path}.source`,
            'max',
            `Must name a journey or broadcast your segments read already: they read ${sourceLimit} distinct sources, the most a client may`,
          );
        else sources.add(key);
      }
      if (condition.on === 'event_count') {
        const id = leafSpecId(condition);
        if (specs.has(id)) continue;
        if (specs.size >= limit)
          add(
            path,
            'max',
            `Must count an event your segments count already: they keep ${limit} distinct event counters (an event type with its conditions), the most a client may`,
          );
        else specs.add(id);
      }
    }
  }
}
