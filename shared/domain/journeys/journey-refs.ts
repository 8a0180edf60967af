import { findSystemTemplate } from '../templates/system-templates.js';
import { isSystemTemplateId, type TemplateStore } from '../templates/template-store.js';
import type { TopicStore } from '../topics/topic-store.js';
import type { SegmentStore } from '../segments/segment-store.js';

/** What validation checks a definition's references against: the templates, topics and segments the client has. */
export interface JourneyRefs {
  templateIds: ReadonlySet<number>;
  topicIds: ReadonlySet<number>;
  segmentIds: ReadonlySet<number>;
}

export interface RefsDeps {
  templates: TemplateStore;
  topics: TopicStore;
  segments: Pick<SegmentStore, 'segmentIds'>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The template ids a draft's send steps name, read tolerantly (a draft may be half-done). */
export function templateIdsNamedBy(draft: unknown): number[] {
  const steps = isRecord(draft) && Array.isArray(draft['steps']) ? draft['steps'] : [];
  const ids = steps.flatMap((step) =>
    isRecord(step) && step['type'] === 'send' && Number.isInteger(step['template_id'])
      ? [step['template_id'] as number]
      : [],
  );
  return [...new Set(ids)];
}

/** Whether a draft names any topic (its settings, a condition): only then are the client's topics read. */
function namesTopic(value: unknown, depth = 0): boolean {
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.some((v) => namesTopic(v, depth + 1));
  if (!isRecord(value)) return false;
  return Object.entries(value).some(
    ([key, v]) => (key === 'topic_id' && typeof v === 'number') || namesTopic(v, depth + 1),
  );
}

/** Whether a draft names any segment (its trigger, a condition): only then are the client's segments read. */
function namesSegment(value: unknown, depth = 0): boolean {
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.some((v) => namesSegment(v, depth + 1));
  if (!isRecord(value)) return false;
  return Object.entries(value).some(
    ([key, v]) => (key === 'segment_id' && typeof v === 'number') || namesSegment(v, depth + 1),
  );
}

/**
 * The templates, topics and segments among those the drafts name that the client may use: a system template, or a
 * live template of its own; one of its topics; one of its segments. Reads in one parallel wave: the client templates
 * named (one BatchGet), the topics item (only when a topic is named) and the segments' count item (only when a
 * segment is named); nothing when none is.
 */
export async function journeyRefs(deps: RefsDeps, clientId: number, drafts: readonly unknown[]): Promise<JourneyRefs> {
  const named = [...new Set(drafts.flatMap(templateIdsNamedBy))];
  const system = named.filter((id) => isSystemTemplateId(id) && findSystemTemplate(id) !== undefined);
  const own = named.filter((id) => id > 0 && !isSystemTemplateId(id));
  const [templates, topics, segmentIds] = await Promise.all([
    own.length > 0 ? deps.templates.getMany(clientId, own) : [],
    drafts.some((d) => namesTopic(d)) ? deps.topics.load(clientId) : undefined,
    drafts.some((d) => namesSegment(d)) ? deps.segments.segmentIds(clientId) : [],
  ]);
  return {
    templateIds: new Set([...system, ...templates.filter((t) => !t.deleted_at).map((t) => t.id)]),
    topicIds: new Set(topics?.topics.map((t) => t.id) ?? []),
    segmentIds: new Set(segmentIds),
  };
}
