import { STEP_ID_PATTERN } from '../../../../shared/public/journey-rules.js';
import type {
  Condition,
  JourneyDefinition,
  JourneySettings,
  JourneyStep,
  JourneyTrigger,
  Next,
  StepType,
} from '../../../../shared/domain/journeys/definition/types.js';

/**
 * Edits of a journey's draft as the step panel makes them: pure and immutable (each returns a new definition and
 * leaves its input as it was), so the page turns the result into its JSON text and saves it as any typed change.
 * None of them validates: the API says what is wrong, at its field.
 */

/**
 * An edge of a step, as the path of its member below the step: `next`, `on_event`, `on_timeout`, `otherwise`,
 * `branches.<i>.next`, `arms.<i>.next`; the trigger's one edge is `entry`, the definition's first step.
 */
export type EdgeKey = string;

/** The order the panel offers the kinds of a new step in, with their names for people. */
export const STEP_KIND_NAMES: Record<StepType, string> = {
  send: 'Send an e-mail',
  wait: 'Wait',
  wait_until: 'Wait until a time of day',
  wait_for_event: 'Wait for an event',
  branch: 'Branch on conditions',
  split: 'Split at random',
  update_contact: 'Update the contact',
  exit: 'Exit the journey',
};
export const STEP_KINDS = Object.keys(STEP_KIND_NAMES) as StepType[];

/** A step's edges, each with its key and a label for people, in the order the step takes them. */
export function edgeKeysOf(step: JourneyStep): { key: EdgeKey; label: string; to: Next }[] {
  switch (step.type) {
    case 'send':
    case 'wait':
    case 'wait_until':
    case 'update_contact':
      return [{ key: 'next', label: 'Then', to: step.next }];
    case 'wait_for_event':
      return [
        { key: 'on_event', label: 'When the event comes', to: step.on_event },
        { key: 'on_timeout', label: 'On timeout', to: step.on_timeout },
      ];
    case 'branch':
      return [
        ...step.branches.map((branch, at) => ({
          key: `branches.${at}.next`,
          label: `Case “${branch.name}”`,
          to: branch.next,
        })),
        { key: 'otherwise', label: 'Otherwise', to: step.otherwise },
      ];
    case 'split':
      return step.arms.map((arm, at) => ({ key: `arms.${at}.next`, label: `Arm “${arm.name}”`, to: arm.next }));
    default:
      return [];
  }
}

/** Where the edge `key` of `step` leads (undefined: the step has no such edge). */
export function edgeTarget(step: JourneyStep, key: EdgeKey): Next | undefined {
  return edgeKeysOf(step).find((edge) => edge.key === key)?.to;
}

/** The step with the edge `key` pointing at `to` (the step unchanged when it has no such edge). */
export function withEdge(step: JourneyStep, key: EdgeKey, to: Next): JourneyStep {
  const item = /^(branches|arms)\.(\d+)\.next$/.exec(key);
  if (item) {
    const at = Number(item[2]);
    if (step.type === 'branch' && item[1] === 'branches' && at < step.branches.length) {
      return { ...step, branches: step.branches.map((b, i) => (i === at ? { ...b, next: to } : b)) };
    }
    if (step.type === 'split' && item[1] === 'arms' && at < step.arms.length) {
      return { ...step, arms: step.arms.map((a, i) => (i === at ? { ...a, next: to } : a)) };
    }
    return step;
  }
  if (key === 'next' && 'next' in step) return { ...step, next: to };
  if (key === 'on_event' && step.type === 'wait_for_event') return { ...step, on_event: to };
  if (key === 'on_timeout' && step.type === 'wait_for_event') return { ...step, on_timeout: to };
  if (key === 'otherwise' && step.type === 'branch') return { ...step, otherwise: to };
  return step;
}

/** The step with every edge that points at `from` pointing at `to` instead. */
function repointed(step: JourneyStep, from: string, to: Next): JourneyStep {
  return edgeKeysOf(step).reduce(
    (changed, edge) => (edge.to === from ? withEdge(changed, edge.key, to) : changed),
    step,
  );
}

/** A step id no step of the definition has: `<kind>_<n>` with the smallest n from 1, within STEP_ID_PATTERN. */
export function freshStepId(definition: JourneyDefinition, kind: StepType): string {
  const taken = new Set(definition.steps.map((step) => step.id));
  for (let n = 1; ; n += 1) {
    const id = `${kind}_${n}`;
    if (!taken.has(id) && STEP_ID_PATTERN.test(id)) return id;
  }
}

/** What a new step of a kind starts as, continuing to `next`: the smallest useful step, for the client to finish. */
export function newStep(kind: StepType, id: string, next: Next, options: { templateId?: number } = {}): JourneyStep {
  switch (kind) {
    case 'send':
      return { id, type: 'send', template_id: options.templateId ?? 1, send_time: { mode: 0 }, next };
    case 'wait':
      return { id, type: 'wait', minutes: 1440, next };
    case 'wait_until':
      return { id, type: 'wait_until', time: '09:00', next };
    case 'wait_for_event':
      // The event type is the client's to name: left empty, the API asks for it at its field.
      return {
        id,
        type: 'wait_for_event',
        event: '',
        match_key: false,
        timeout_minutes: 1440,
        on_event: next,
        on_timeout: next,
      };
    case 'branch':
      // A case needs a condition (the API asks for one at the case's conditions); both ways continue as before.
      return { id, type: 'branch', branches: [{ name: 'Case 1', conditions: [], next }], otherwise: next };
    case 'split':
      return {
        id,
        type: 'split',
        arms: [
          { name: 'A', percent: 50, next },
          { name: 'B', percent: 50, next },
        ],
      };
    case 'update_contact':
      return { id, type: 'update_contact', add_tags: [], next };
    case 'exit':
      return { id, type: 'exit' };
  }
}

/**
 * The definition with a new step of `kind` on the edge `edge` of `from` (a step's id, or `trigger` for the entry):
 * the edge points at the new step, which continues to where the edge pointed. The new step goes after `from` in the
 * list (the list's order is the outline's and the JSON's). Returns the definition and the new step's id; the
 * definition unchanged (id null) when `from` or its edge does not exist.
 */
export function addStepAfter(
  definition: JourneyDefinition,
  from: string,
  edge: EdgeKey,
  kind: StepType,
  options: { templateId?: number } = {},
): { definition: JourneyDefinition; id: string | null } {
  const id = freshStepId(definition, kind);
  if (from === 'trigger') {
    // A draft whose entry names no step (none yet): the new step is the whole journey.
    const entry = definition.steps.some((step) => step.id === definition.entry) ? definition.entry : null;
    const step = newStep(kind, id, entry, options);
    return { definition: { ...definition, entry: id, steps: [step, ...definition.steps] }, id };
  }
  const at = definition.steps.findIndex((step) => step.id === from);
  const source = definition.steps[at];
  if (!source) return { definition, id: null };
  const target = edgeTarget(source, edge);
  if (target === undefined) return { definition, id: null };
  const steps = [...definition.steps];
  steps.splice(at, 1, withEdge(source, edge, id), newStep(kind, id, target, options));
  return { definition: { ...definition, steps }, id };
}

/** Where a removed step's runs would have gone: its one way on (all its edges to one step), else nowhere (null). */
function onlyNextOf(step: JourneyStep): Next {
  const targets = new Set(edgeKeysOf(step).map((edge) => edge.to));
  return targets.size === 1 ? ([...targets][0] ?? null) : null;
}

/**
 * The definition without the step `id`: the edges into it lead where it led (its single next, or null when it had
 * none or several ways on); when it was the entry, the entry moves there, else to the first step left. The last step
 * is never removed (a journey has at least one): the definition comes back unchanged.
 */
export function removeStep(definition: JourneyDefinition, id: string): JourneyDefinition {
  const removed = definition.steps.find((step) => step.id === id);
  if (!removed || definition.steps.length <= 1) return definition;
  const next = onlyNextOf(removed);
  const steps = definition.steps.filter((step) => step.id !== id).map((step) => repointed(step, id, next));
  const entry = definition.entry === id ? (next ?? steps[0]?.id ?? definition.entry) : definition.entry;
  return { ...definition, entry, steps };
}

/** A condition naming the send step `from` names `to` instead. */
const renamedCondition = (condition: Condition, from: string, to: string): Condition =>
  condition.on === 'engagement' && condition.send_step === from ? { ...condition, send_step: to } : condition;
const renamedConditions = (conditions: Condition[] | undefined, from: string, to: string) =>
  conditions?.map((condition) => renamedCondition(condition, from, to));

/**
 * The definition with the step `from` called `to`, every reference following: the entry, every edge, and every
 * engagement condition reading it. Unchanged when `to` is not a step id (STEP_ID_PATTERN) or another step has it: a
 * rename never merges two steps.
 */
export function renameStep(definition: JourneyDefinition, from: string, to: string): JourneyDefinition {
  if (from === to || !STEP_ID_PATTERN.test(to)) return definition;
  if (!definition.steps.some((step) => step.id === from)) return definition;
  if (definition.steps.some((step) => step.id === to)) return definition;
  const steps = definition.steps.map((original): JourneyStep => {
    const step = repointed(original.id === from ? { ...original, id: to } : original, from, to);
    if (step.type === 'wait_for_event' && step.conditions) {
      return { ...step, conditions: renamedConditions(step.conditions, from, to) ?? [] };
    }
    if (step.type === 'branch') {
      return {
        ...step,
        branches: step.branches.map((b) => ({ ...b, conditions: renamedConditions(b.conditions, from, to) ?? [] })),
      };
    }
    return step;
  });
  const trigger = definition.trigger.conditions
    ? { ...definition.trigger, conditions: renamedConditions(definition.trigger.conditions, from, to) ?? [] }
    : definition.trigger;
  return { ...definition, trigger, entry: definition.entry === from ? to : definition.entry, steps };
}

/** The definition with the step of `step.id` replaced by `step` (unchanged when there is none). */
export function setStep(definition: JourneyDefinition, step: JourneyStep): JourneyDefinition {
  if (!definition.steps.some((one) => one.id === step.id)) return definition;
  return { ...definition, steps: definition.steps.map((one) => (one.id === step.id ? step : one)) };
}

export const setTrigger = (definition: JourneyDefinition, trigger: JourneyTrigger): JourneyDefinition => ({
  ...definition,
  trigger,
});

export const setSettings = (definition: JourneyDefinition, settings: JourneySettings): JourneyDefinition => ({
  ...definition,
  settings,
});

export const setEntry = (definition: JourneyDefinition, entry: string): JourneyDefinition => ({ ...definition, entry });

/** A condition list with `condition` added at its end. */
export const addCondition = (list: readonly Condition[] | undefined, condition: Condition): Condition[] => [
  ...(list ?? []),
  condition,
];

/** A condition list without its item at `index`. */
export const removeCondition = (list: readonly Condition[], index: number): Condition[] =>
  list.filter((_, at) => at !== index);

/** A condition list with its item at `index` replaced. */
export const changeCondition = (list: readonly Condition[], index: number, condition: Condition): Condition[] =>
  list.map((one, at) => (at === index ? condition : one));

/**
 * The send steps an engagement condition of the step `reader` may read: those a run can pass before reaching it (the
 * steps leading to it, however far back). The API asks more (every path to the reader passes the send step) and says
 * so at the condition. The entry reads none; a reader no step leads to yet (off the graph) may read any send step.
 */
export function sendStepsOf(definition: JourneyDefinition, reader?: string): string[] {
  const sends = definition.steps.filter((step) => step.type === 'send' && step.id !== reader).map((step) => step.id);
  if (reader === undefined) return sends;
  const into = new Map<string, string[]>();
  for (const step of definition.steps) {
    for (const edge of edgeKeysOf(step)) {
      if (edge.to !== null) into.set(edge.to, [...(into.get(edge.to) ?? []), step.id]);
    }
  }
  const before = new Set<string>();
  const queue = [...(into.get(reader) ?? [])];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (before.has(id)) continue;
    before.add(id);
    queue.push(...(into.get(id) ?? []));
  }
  if (before.size === 0 && reader !== definition.entry) return sends;
  return sends.filter((id) => before.has(id));
}

/** The first condition of a kind, for the client to finish (an empty name or path: the API asks for it at its field). */
export function newCondition(
  on: Condition['on'],
  context: { sendSteps?: readonly string[]; topicIds?: readonly number[]; segmentIds?: readonly number[] } = {},
): Condition {
  switch (on) {
    case 'event':
      return { on: 'event', path: '', op: 'eq', value: '' };
    case 'contact':
      return { on: 'contact', field: 'email', op: 'exists' };
    case 'custom_field':
      return { on: 'custom_field', name: '', op: 'eq', value: '' };
    case 'tag':
      return { on: 'tag', op: 'has', tag: '' };
    case 'topic':
      return { on: 'topic', topic_id: context.topicIds?.[0] ?? 0, op: 'subscribed' };
    case 'engagement':
      return { on: 'engagement', send_step: context.sendSteps?.[0] ?? '', op: 'human_opened' };
    case 'segment':
      return { on: 'segment', segment_id: context.segmentIds?.[0] ?? 0, op: 'member' };
  }
}
