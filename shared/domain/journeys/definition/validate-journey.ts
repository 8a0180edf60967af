/**
 * Whether a journey definition may be published, with every issue at once at its JSON path (`steps.3.on_timeout`),
 * where the editor shows it. Pure: the caller reads the client's templates and topics first (`refs`).
 *
 * The graph rules read the input leniently, so a half-done draft with a wrong field still hears about its unreachable
 * step; a path the schema already faulted gets no second issue.
 */
import { issueToItem } from '../../../validation/issue-items.js';
import { JOURNEY_LIMITS } from '../../../public/journey-rules.js';
import { JourneyDefinitionSchema, JOURNEY_ISSUE_CONDITIONS } from './schemas.js';
import type { JourneyDefinition, JourneyIssue } from './types.js';

/** The stored data a definition names: the client's usable templates (system and live), its topics and segments. */
export interface JourneyRefs {
  templateIds: ReadonlySet<number>;
  topicIds: ReadonlySet<number>;
  segmentIds: ReadonlySet<number>;
}

export interface JourneyValidation {
  /**
   * The definition, when its shape is right (the schema parsed it); `issues` may still name graph or stored-data
   * rules. Publishable only with no issues.
   */
  definition?: JourneyDefinition;
  issues: JourneyIssue[];
}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A step as the graph rules read it: its place, id, type and edges (only edges holding a string). */
interface GraphStep {
  index: number;
  id: string | undefined;
  type: string | undefined;
  edges: { path: string; target: string }[];
  raw: Raw;
}

/**
 * Every issue of `input` as a journey definition; `refs` absent skips the rules on stored data (templates, topics).
 */
export function validateJourney(input: unknown, refs?: JourneyRefs): JourneyValidation {
  const issues: JourneyIssue[] = [];
  const faulted = new Set<string>();
  const add = (path: string, condition: JourneyIssue['condition'], error: string) => {
    if (faulted.has(path)) return;
    faulted.add(path);
    issues.push({ path, condition, error });
  };

  const bytes = sizeOf(input);
  if (bytes > JOURNEY_LIMITS.definitionBytes)
    add('', 'max', `Must be at most ${JOURNEY_LIMITS.definitionBytes} bytes as JSON (it is ${bytes})`);

  const parsed = JourneyDefinitionSchema.safeParse(input, { reportInput: true });
  if (!parsed.success)
    for (const issue of parsed.error.issues) for (const i of schemaIssues(issue)) add(i.path, i.condition, i.error);

  // Over the step limit the schema's `max` says it; the graph walk stays bounded (a deep chain would recurse deep).
  if (isObject(input) && arrayOf(input['steps']).length <= JOURNEY_LIMITS.steps) graphIssues(input, refs, add);
  return parsed.success ? { definition: parsed.data, issues } : { issues };
}

function sizeOf(input: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(input) ?? '').length;
  } catch {
    return 0;
  }
}

type ZodIssue = Parameters<typeof issueToItem>[0];

/** A zod issue as the journey's issues: an unknown member at its own path, an unknown `type` / `on` as `enum`. */
export function schemaIssues(issue: ZodIssue): JourneyIssue[] {
  const path = issue.path.map(String).join('.');
  const at = (key: string) => (path === '' ? key : `${path}.${key}`);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      path: at(key),
      condition: 'format' as const,
      error: `Must be left out: ${key} is not a member here`,
    }));
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof issue.discriminator === 'string') {
    // The path names the discriminator; a missing one is `required`, any other value not one of the kinds.
    const missing = isObject(issue.input) && issue.input[issue.discriminator] === undefined;
    return [{ path, condition: missing ? 'required' : 'enum', error: issue.message }];
  }
  const item = issueToItem(issue);
  const condition = (JOURNEY_ISSUE_CONDITIONS as readonly string[]).includes(item.condition)
    ? (item.condition as JourneyIssue['condition'])
    : 'format';
  return [{ path, condition, error: item.error }];
}

function graphStepsOf(input: Raw): GraphStep[] {
  return arrayOf(input['steps']).flatMap((raw, index) => {
    if (!isObject(raw)) return [];
    const base = `steps.${index}`;
    const edges: { path: string; target: string }[] = [];
    const edge = (path: string, value: unknown) => {
      const target = stringOf(value);
      if (target !== undefined) edges.push({ path, target });
    };
    const type = stringOf(raw['type']);
    switch (type) {
      case 'wait_for_event':
        edge(`${base}.on_event`, raw['on_event']);
        edge(`${base}.on_timeout`, raw['on_timeout']);
        break;
      case 'branch':
        for (const [i, b] of arrayOf(raw['branches']).entries())
          if (isObject(b)) edge(`${base}.branches.${i}.next`, b['next']);
        edge(`${base}.otherwise`, raw['otherwise']);
        break;
      case 'split':
        for (const [i, a] of arrayOf(raw['arms']).entries()) if (isObject(a)) edge(`${base}.arms.${i}.next`, a['next']);
        break;
      case 'exit':
        break;
      default:
        edge(`${base}.next`, raw['next']);
    }
    return [{ index, id: stringOf(raw['id']), type, edges, raw }];
  });
}

type Add = (path: string, condition: JourneyIssue['condition'], error: string) => void;

function graphIssues(input: Raw, refs: JourneyRefs | undefined, add: Add): void {
  const steps = graphStepsOf(input);
  const byId = new Map<string, GraphStep>();
  for (const step of steps) {
    if (step.id === undefined) continue;
    const first = byId.get(step.id);
    if (first) add(`steps.${step.index}.id`, 'unique', `Must be unique: steps.${first.index} has the id ${step.id}`);
    else byId.set(step.id, step);
  }

  const entry = stringOf(input['entry']);
  if (entry !== undefined && !byId.has(entry))
    add('entry', 'reference', `Must name a step: no step has the id ${entry}`);
  for (const step of steps)
    for (const e of step.edges)
      if (!byId.has(e.target)) add(e.path, 'reference', `Must name a step, or be null: no step has the id ${e.target}`);

  const successors = (step: GraphStep) =>
    step.edges.flatMap((e) => {
      const target = byId.get(e.target);
      return target ? [{ ...e, step: target }] : [];
    });
  const start = entry === undefined ? undefined : byId.get(entry);
  const reachable = reachableFrom(start, successors);
  if (start) {
    for (const step of steps)
      if (!reachable.has(step) && step.id !== undefined && byId.get(step.id) === step)
        add(`steps.${step.index}`, 'graph', `Must be reachable: no path from the entry step reaches ${step.id}`);
  }
  cycleIssues(steps, successors, add);
  splitIssues(steps, add);
  splitWinnerIssues(input, steps, byId, successors, add);
  engagementIssues(input, steps, byId, start, successors, add);
  triggerKeyIssues(input, steps, add);
  segmentIssues(input, steps, add);
  settingsIssues(input, add);
  if (refs) referenceIssues(input, steps, refs, add);
}

type Successors = (step: GraphStep) => { path: string; step: GraphStep }[];

function reachableFrom(start: GraphStep | undefined, successors: Successors, without?: GraphStep): Set<GraphStep> {
  const seen = new Set<GraphStep>();
  if (!start || start === without) return seen;
  const queue = [start];
  seen.add(start);
  while (queue.length > 0) {
    const step = queue.shift()!;
    for (const { step: next } of successors(step)) {
      if (next === without || seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

/** Each back edge of a depth-first walk closes a loop; it is reported at that edge, naming the loop. */
function cycleIssues(steps: GraphStep[], successors: Successors, add: Add): void {
  const state = new Map<GraphStep, 'open' | 'done'>();
  const trail: GraphStep[] = [];
  const visit = (step: GraphStep): void => {
    state.set(step, 'open');
    trail.push(step);
    for (const { path, step: next } of successors(step)) {
      const seen = state.get(next);
      if (seen === 'open') {
        const loop = [...trail.slice(trail.indexOf(next)), next].map((s) => s.id).join(' → ');
        add(path, 'graph', `Must not loop back: ${loop}`);
      } else if (seen === undefined) visit(next);
    }
    trail.pop();
    state.set(step, 'done');
  };
  for (const step of steps) if (!state.has(step)) visit(step);
}

function splitIssues(steps: GraphStep[], add: Add): void {
  for (const step of steps) {
    if (step.type !== 'split') continue;
    const percents = arrayOf(step.raw['arms']).map((a) => (isObject(a) ? a['percent'] : undefined));
    if (percents.length === 0 || !percents.every((p) => typeof p === 'number' && Number.isFinite(p))) continue;
    // In hundredths, as the split hashes them: 33.33 + 33.33 + 33.34 is exactly 100.
    const hundredths = (percents as number[]).reduce((sum, p) => sum + Math.round(p * 100), 0);
    if (hundredths !== 10_000)
      add(`steps.${step.index}.arms`, 'graph', `Percentages must add up to 100 (they add up to ${hundredths / 100})`);
  }
}

/**
 * A split with an automatic winner compares its arms' e-mails: each arm must lead to a send step (one some path from
 * the arm reaches), else that arm never sends and no winner could ever be chosen. A conversions winner needs exit
 * events: without one, nothing converts.
 */
function splitWinnerIssues(
  input: Raw,
  steps: GraphStep[],
  byId: Map<string, GraphStep>,
  successors: Successors,
  add: Add,
): void {
  for (const step of steps) {
    if (step.type !== 'split' || !isObject(step.raw['winner'])) continue;
    for (const [i, arm] of arrayOf(step.raw['arms']).entries()) {
      const target = isObject(arm) ? stringOf(arm['next']) : undefined;
      const from = target === undefined ? undefined : byId.get(target);
      const sends = [...reachableFrom(from, successors)].some((s) => s.type === 'send');
      if (!sends)
        add(
          `steps.${step.index}.arms.${i}.next`,
          'graph',
          'Must lead to a send step: a split with a winner compares the e-mails of its arms',
        );
    }
    const settings = isObject(input['settings']) ? input['settings'] : {};
    if (step.raw['winner']['metric'] === 'conversions' && arrayOf(settings['exit_events']).length === 0)
      add(
        `steps.${step.index}.winner.metric`,
        'graph',
        'Must not be conversions without settings.exit_events: a conversion is an exit event after an e-mail',
      );
  }
}

/** Where engagement conditions are read: a branch's branches and a wait_for_event's conditions; also the trigger's. */
function conditionsOf(step: GraphStep): { path: string; condition: Raw }[] {
  const base = `steps.${step.index}`;
  const list = (path: string, value: unknown) =>
    arrayOf(value).flatMap((c, i) => (isObject(c) ? [{ path: `${path}.${i}`, condition: c }] : []));
  if (step.type === 'branch')
    return arrayOf(step.raw['branches']).flatMap((b, i) =>
      isObject(b) ? list(`${base}.branches.${i}.conditions`, b['conditions']) : [],
    );
  if (step.type === 'wait_for_event') return list(`${base}.conditions`, step.raw['conditions']);
  return [];
}

/**
 * An engagement condition reads a send step of this run: one that every path from the entry to the reading step
 * passes (it dominates the reader: without it, the reader is unreachable). Otherwise it may not have run.
 */
function engagementIssues(
  input: Raw,
  steps: GraphStep[],
  byId: Map<string, GraphStep>,
  start: GraphStep | undefined,
  successors: Successors,
  add: Add,
): void {
  const trigger = isObject(input['trigger']) ? input['trigger'] : {};
  for (const key of ['conditions', 'or_when'])
    arrayOf(trigger[key]).forEach((c, i) => {
      if (isObject(c) && c['on'] === 'engagement')
        add(`trigger.${key}.${i}.send_step`, 'reference', 'Must be left out: no send step has run when a run starts');
    });
  for (const reader of steps) {
    for (const { path, condition } of conditionsOf(reader)) {
      if (condition['on'] !== 'engagement') continue;
      const name = stringOf(condition['send_step']);
      if (name === undefined) continue;
      const send = byId.get(name);
      if (send?.type !== 'send') {
        add(
          `${path}.send_step`,
          'reference',
          `Must name a send step: ${name} is ${send ? `a ${send.type} step` : 'no step'}`,
        );
        continue;
      }
      if (!start || !reachableFrom(start, successors).has(reader)) continue;
      if (reachableFrom(start, successors, send).has(reader))
        add(
          `${path}.send_step`,
          'reference',
          `Must name a send step every path to ${reader.id} passes: a run may reach ${reader.id} without ${name} having sent`,
        );
    }
  }
}

function triggerKeyIssues(input: Raw, steps: GraphStep[], add: Add): void {
  const trigger = input['trigger'];
  // Without a trigger, its own issue says enough.
  if (!isObject(trigger) || trigger['key'] !== undefined) return;
  for (const step of steps)
    if (step.type === 'wait_for_event' && step.raw['match_key'] === true)
      add(
        `steps.${step.index}.match_key`,
        'required',
        'Needs trigger.key: a run has no key value for the event to match',
      );
}

/**
 * A trigger is an event type or a segment move, exactly one; a segment move has no event to key or to widen. A
 * segment condition is read where a run stands on a step (a branch), never where an event is matched (a trigger's
 * conditions, a wait_for_event's): those are decided by event processing, which reads no membership.
 */
function segmentIssues(input: Raw, steps: GraphStep[], add: Add): void {
  const trigger = input['trigger'];
  const lists: { path: string; value: unknown }[] = [];
  // (or_when takes event conditions only: its schema says so.)
  if (isObject(trigger)) lists.push({ path: 'trigger.conditions', value: trigger['conditions'] });
  for (const step of steps)
    if (step.type === 'wait_for_event')
      lists.push({ path: `steps.${step.index}.conditions`, value: step.raw['conditions'] });
  for (const { path, value } of lists)
    arrayOf(value).forEach((c, i) => {
      if (isObject(c) && c['on'] === 'segment')
        add(`${path}.${i}.on`, 'format', 'Must not be segment here: segment conditions are read by branch steps only');
    });
  if (isObject(trigger)) {
    const hasEvent = trigger['event'] !== undefined;
    const hasSegment = trigger['segment'] !== undefined;
    if (!hasEvent && !hasSegment)
      add('trigger.event', 'required', 'trigger.event is required (or trigger.segment): nothing would start a run');
    if (hasEvent && hasSegment)
      add('trigger.segment', 'format', 'Must be left out with trigger.event: a trigger is an event or a segment move');
    if (hasSegment)
      for (const key of ['key', 'or_when'])
        if (trigger[key] !== undefined)
          add(`trigger.${key}`, 'format', 'Must be left out: a segment trigger has no event to read it from');
  }
}

function settingsIssues(input: Raw, add: Add): void {
  const trigger = isObject(input['trigger']) ? input['trigger'] : {};
  const settings = isObject(input['settings']) ? input['settings'] : undefined;
  if (!settings) return;
  const event = stringOf(trigger['event']);
  arrayOf(settings['exit_events']).forEach((type, i) => {
    if (event !== undefined && type === event)
      add(
        `settings.exit_events.${i}`,
        'format',
        `Must not be the trigger's event type (${event}): an event that starts a run never exits it`,
      );
  });
  const category = settings['category'];
  if (category === 'transactional' && typeof settings['topic_id'] === 'number')
    add(
      'settings.topic_id',
      'read_only',
      'Must be null: a transactional journey reaches every contact, under no topic',
    );
  if (category === 'marketing' && settings['critical'] === true)
    add('settings.critical', 'read_only', 'Must be false: only transactional mail may pass the daily cap');
}

function referenceIssues(input: Raw, steps: GraphStep[], refs: JourneyRefs, add: Add): void {
  for (const step of steps) {
    const template = step.raw['template_id'];
    if (step.type === 'send' && typeof template === 'number' && !refs.templateIds.has(template))
      add(
        `steps.${step.index}.template_id`,
        'reference',
        `Must name a system template or a live template of yours: ${template} is neither`,
      );
  }
  const settings = isObject(input['settings']) ? input['settings'] : {};
  const topic = settings['topic_id'];
  if (typeof topic === 'number' && !refs.topicIds.has(topic))
    add('settings.topic_id', 'reference', `Must name one of your topics: ${topic} is none`);
  const trigger = isObject(input['trigger']) ? input['trigger'] : {};
  const lists: { path: string; value: unknown }[] = [{ path: 'trigger.conditions', value: trigger['conditions'] }];
  for (const step of steps) {
    if (step.type === 'wait_for_event')
      lists.push({ path: `steps.${step.index}.conditions`, value: step.raw['conditions'] });
    if (step.type === 'branch')
      arrayOf(step.raw['branches']).forEach((b, i) => {
        if (isObject(b)) lists.push({ path: `steps.${step.index}.branches.${i}.conditions`, value: b['conditions'] });
      });
  }
  for (const { path, value } of lists)
    arrayOf(value).forEach((c, i) => {
      if (isObject(c) && c['on'] === 'topic' && typeof c['topic_id'] === 'number' && !refs.topicIds.has(c['topic_id']))
        add(`${path}.${i}.topic_id`, 'reference', `Must name one of your topics: ${c['topic_id']} is none`);
      if (
        isObject(c) &&
        c['on'] === 'segment' &&
        typeof c['segment_id'] === 'number' &&
        !refs.segmentIds.has(c['segment_id'])
      )
        add(`${path}.${i}.segment_id`, 'reference', `Must name one of your segments: ${c['segment_id']} is none`);
    });
  const segment = isObject(trigger['segment']) ? trigger['segment']['segment_id'] : undefined;
  if (typeof segment === 'number' && !refs.segmentIds.has(segment))
    add('trigger.segment.segment_id', 'reference', `Must name one of your segments: ${segment} is none`);
}
