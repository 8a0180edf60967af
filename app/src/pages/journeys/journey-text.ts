import type { Condition, JourneyDefinition, JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import type { components, paths } from '../../api/openapi.js';

export type { JourneyDefinition, JourneyStep };

/** The envelope's `data` of an operation's success (200 or 201). */
type DataOf<O> = O extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': { data: infer D } } } }
    ? D
    : R extends { 201: { content: { 'application/json': { data: infer D } } } }
      ? D
      : never
  : never;
type Journeys = '/api/v1/client/journeys/{id}';

/** A journey as GET /client/journeys lists it (the 8 system journeys, then the client's own). */
export type JourneySummary = components['schemas']['JourneySummary'];
/** One journey as GET /client/journeys/{id} answers it: its head, draft, issues and live definition. */
export type Journey = components['schemas']['Journey'];
export type JourneyIssue = Journey['issues'][number];
export type JourneyStatus = JourneySummary['status'];
/** POST …/validate's answer: the issues of the saved draft and what publishing it does to each step's runs. */
type ValidateAnswer = DataOf<paths[`${Journeys}/validate`]['post']>;
/** A step's impact; `waiting` (runs there now) is null until the runs are counted. */
type Impact = Omit<ValidateAnswer['impact'][number], 'waiting'> & { waiting?: number | null };
export type Validation = Pick<ValidateAnswer, 'valid' | 'issues'> & { impact: Impact[] };
export type VersionSummary = DataOf<paths[`${Journeys}/versions`]['get']>['versions'][number];
export type Version = components['schemas']['JourneyVersion'];
export type Diff = DataOf<paths[`${Journeys}/diff`]['get']>;
export type StepMove = components['schemas']['StepMove'];

/** A journey's status in words. */
export const STATUS_TEXT: Record<JourneyStatus, string> = {
  draft: 'Draft',
  live: 'Live',
  paused: 'Paused',
  archived: 'Archived',
};

/** Ids 1–8 are the system journeys (the workflows), read-only; a client's own are numbered from 1000. */
export const isSystemJourney = (id: number): boolean => id >= 1 && id <= 8;

/** What a step's edge is called in the outline, by its field. */
export interface Edge {
  /** Where it is taken: "next", "on the event", "branch “Pro”", … */
  label: string;
  /** The step it leads to, or null: the run ends there. */
  to: string | null;
}

/** Any value as short text (a condition's compared value). */
const valueText = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map(valueText).join(', ')}]` : JSON.stringify(value);

const OP_TEXT: Record<string, string> = {
  eq: '=',
  neq: '≠',
  in: 'in',
  not_in: 'not in',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  contains: 'contains',
  exists: 'exists',
  not_exists: 'does not exist',
  has: 'has tag',
  has_not: 'has not tag',
  subscribed: 'subscribed to topic',
  unsubscribed: 'not subscribed to topic',
  human_opened: 'a person opened',
  human_clicked: 'a person clicked',
  neither: 'neither opened nor clicked',
};

/** One condition as a line of text: "event plan = "pro"", "tag has tag vip", "engagement of remind: a person opened". */
export function conditionText(condition: Condition): string {
  const op = OP_TEXT[condition.op] ?? condition.op;
  const compared = 'value' in condition && condition.value !== undefined ? ` ${valueText(condition.value)}` : '';
  switch (condition.on) {
    case 'event':
      return `event ${condition.path} ${op}${compared}`;
    case 'contact':
      return `contact ${condition.field} ${op}${compared}`;
    case 'custom_field':
      return `custom field ${condition.name} ${op}${compared}`;
    case 'tag':
      return `${op} ${condition.tag}`;
    case 'topic':
      return `${op} #${condition.topic_id}`;
    case 'engagement':
      return `the e-mail of ${condition.send_step}: ${op}`;
    case 'segment':
      return `${condition.op === 'member' ? 'in' : 'not in'} segment #${condition.segment_id}`;
    default:
      return JSON.stringify(condition);
  }
}

const conditionsText = (conditions: readonly Condition[] | undefined): string =>
  conditions && conditions.length > 0 ? ` when ${conditions.map(conditionText).join(' and ')}` : '';

/** A duration in minutes, in the largest whole unit. */
export function minutesText(minutes: number): string {
  const units: [number, string][] = [
    [1440, 'day'],
    [60, 'hour'],
    [1, 'minute'],
  ];
  for (const [size, name] of units) {
    if (minutes % size === 0) {
      const count = minutes / size;
      return `${count} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  return `${minutes} minutes`;
}

const SEND_TIME_TEXT = ['at once', 'at the preferred local time', 'at the optimal time for the contact'];

/** What a step does, in one line. */
export function stepSummaryOf(step: JourneyStep): string {
  switch (step.type) {
    case 'send':
      return `Send template #${step.template_id} ${SEND_TIME_TEXT[step.send_time.mode] ?? ''}`.trim();
    case 'wait':
      return `Wait ${minutesText(step.minutes)}`;
    case 'wait_until':
      return `Wait until ${step.time}${step.weekdays?.length ? ` on weekdays ${step.weekdays.join(', ')}` : ''} (contact’s time)`;
    case 'wait_for_event':
      return `Wait up to ${minutesText(step.timeout_minutes)} for ${step.event}${step.match_key ? ' with the same key' : ''}${conditionsText(step.conditions)}`;
    case 'branch':
      return `Branch: the first of ${step.branches.length} that holds`;
    case 'split':
      return `Split ${step.arms.map((arm) => `${arm.percent} %`).join(' / ')}`;
    case 'update_contact': {
      const parts = [
        ...Object.keys(step.set ?? {}).map((field) => `set ${field}`),
        ...Object.keys(step.set_custom ?? {}).map((field) => `set ${field}`),
        ...(step.add_tags ?? []).map((tag) => `add tag ${tag}`),
        ...(step.remove_tags ?? []).map((tag) => `remove tag ${tag}`),
      ];
      return `Update the contact${parts.length ? `: ${parts.join(', ')}` : ''}`;
    }
    case 'exit':
      return 'Exit the journey';
    default:
      return '';
  }
}

/** Where each of a step's edges leads, in the order the step takes them. */
export function edgesOf(step: JourneyStep): Edge[] {
  switch (step.type) {
    case 'send':
    case 'wait':
    case 'wait_until':
    case 'update_contact':
      return [{ label: 'then', to: step.next }];
    case 'wait_for_event':
      return [
        { label: `on ${step.event}`, to: step.on_event },
        { label: 'on timeout', to: step.on_timeout },
      ];
    case 'branch':
      return [
        ...step.branches.map((branch) => ({
          label: `if “${branch.name}”${conditionsText(branch.conditions)}`,
          to: branch.next,
        })),
        { label: 'otherwise', to: step.otherwise },
      ];
    case 'split':
      return step.arms.map((arm) => ({ label: `arm “${arm.name}” (${arm.percent} %)`, to: arm.next }));
    default:
      return [];
  }
}

/** How the trigger starts runs, in one line. */
export function triggerText(trigger: JourneyDefinition['trigger']): string {
  const reentry =
    trigger.reentry.mode === 'once'
      ? 'once per contact'
      : trigger.reentry.mode === 'always'
        ? 'every time'
        : `at most once every ${trigger.reentry.days} days`;
  const key = trigger.key ? `, one run per ${trigger.key}` : '';
  const start = trigger.segment
    ? `On ${trigger.segment.on === 'enter' ? 'entering' : 'leaving'} segment #${trigger.segment.segment_id}`
    : `On ${trigger.event}`;
  return `${start}${conditionsText(trigger.conditions)}${key}; ${reentry}`;
}

/**
 * The order people read a definition's members in (a step's id and type first, its edges last), by the member that
 * holds them. The API keeps a definition's values, not the order of its members, so the page puts them in this one.
 */
const MEMBER_ORDER: Record<string, readonly string[]> = {
  definition: ['trigger', 'entry', 'steps', 'settings'],
  trigger: ['event', 'segment', 'conditions', 'or_when', 'key', 'reentry'],
  segment: ['segment_id', 'on'],
  reentry: ['mode', 'days'],
  step: [
    'id',
    'type',
    'name',
    'event',
    'template_id',
    'priority_score',
    'send_time',
    'minutes',
    'time',
    'weekdays',
    'conditions',
    'match_key',
    'timeout_minutes',
    'branches',
    'arms',
    'winner',
    'set',
    'set_custom',
    'add_tags',
    'remove_tags',
    'next',
    'on_event',
    'on_timeout',
    'otherwise',
  ],
  send_time: ['mode', 'preferred_hour', 'preferred_minute', 'slot'],
  condition: ['on', 'path', 'field', 'name', 'tag', 'topic_id', 'send_step', 'segment_id', 'op', 'value'],
  branch: ['name', 'conditions', 'next'],
  arm: ['name', 'percent', 'next'],
  settings: ['category', 'topic_id', 'critical', 'exit_events', 'conversion_window_days'],
};

/** What the members of the value held under `key` (in an object of kind `within`) are. */
function kindOf(within: string, key: string): string | undefined {
  if (key === 'trigger' || key === 'reentry' || key === 'send_time' || key === 'settings') return key;
  if (key === 'segment' && within === 'trigger') return key;
  if (key === 'steps' && within === 'definition') return 'step';
  if (key === 'conditions' || key === 'or_when') return 'condition';
  if (key === 'branches') return 'branch';
  if (key === 'arms') return 'arm';
  return undefined;
}

/** The value with each object's members in MEMBER_ORDER (unknown members after, in their order); values untouched. */
function ordered(value: unknown, kind: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, kind));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const order = (kind && MEMBER_ORDER[kind]) || [];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.fromEntries(
    entries
      .map(([key, item], at) => ({ key, item, at }))
      .sort((a, b) => rank(a.key) - rank(b.key) || a.at - b.at)
      .map(({ key, item }) => [key, kind ? ordered(item, kindOf(kind, key)) : item]),
  );
}

/**
 * The definition as the JSON the page shows, exports and copies: two-space indent, as the API guide prints it, its
 * members in the order people read them.
 */
export const jsonOf = (definition: unknown): string =>
  `${JSON.stringify(ordered(definition, 'definition'), null, 2)}\n`;
