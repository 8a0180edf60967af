import type { ComponentChildren } from 'preact';
import { SEGMENT_LIMITS } from '../../../../shared/public/segment-rules.js';
import type { components } from '../../api/openapi.js';
import { Field } from '../../ui/field.js';

type Schemas = components['schemas'];
/**
 * One kind of condition as the document's type states it: the generator writes a condition's shape beside the
 * value rules of its operators (`exists` takes no value…) as a union, so the kind's own member is picked out by `on`.
 */
type Kinded<T, K extends string> = Extract<T, { on: K }>;
type ContactCondition = Kinded<Schemas['JourneyContactCondition'], 'contact'>;
type CustomFieldCondition = Kinded<Schemas['JourneyCustomFieldCondition'], 'custom_field'>;
type DateCondition = Kinded<Schemas['SegmentDateCondition'], 'date'>;
export type Condition =
  | ContactCondition
  | CustomFieldCondition
  | Schemas['JourneyTagCondition']
  | Schemas['JourneyTopicCondition']
  | Schemas['SegmentSubscriptionCondition']
  | DateCondition
  | Schemas['SegmentEventCountCondition']
  | Schemas['SegmentEngagementCondition'];
export interface Group {
  match: Match;
  conditions: Condition[];
}
export interface Definition {
  match: Match;
  groups: Group[];
}
type Kind = Condition['on'];
type Match = Schemas['SegmentDefinition']['match'];
type ValueOp = Schemas['JourneyValueOp'];
type Value = Schemas['JourneyConditionValue'];
type Scalar = string | number | boolean;

/**
 * Every member of a union of strings, as a list: the type check fails when the API's document gains a value the
 * list lacks, so the builder's choices never fall behind the types generated from it.
 */
const everyOf =
  <T extends string>() =>
  <const V extends readonly T[]>(values: V & ([T] extends [V[number]] ? unknown : never)): V =>
    values;

const KINDS = everyOf<Kind>()([
  'contact',
  'custom_field',
  'tag',
  'topic',
  'subscription',
  'date',
  'event_count',
  'engagement',
]);
const KIND_TEXT: Record<Kind, string> = {
  contact: 'Contact field',
  custom_field: 'Custom field',
  tag: 'Tag',
  topic: 'Topic',
  subscription: 'Subscription',
  date: 'Date',
  event_count: 'Event count',
  engagement: 'Engagement',
};
const CONTACT_FIELDS = everyOf<ContactCondition['field']>()([
  'email',
  'first_name',
  'last_name',
  'company',
  'phone',
  'timezone',
  'is_subscribed',
  'signup_source',
  'health_score',
  'total_emails_sent',
  'total_emails_opened',
  'total_emails_clicked',
  'created_at',
  'last_activity_at',
  'last_purchase_at',
  'last_email_opened_at',
]);
const VALUE_OPS = everyOf<ValueOp>()([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'in',
  'not_in',
  'exists',
  'not_exists',
]);
const VALUE_OP_TEXT: Record<ValueOp, string> = {
  eq: 'is',
  neq: 'is not',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  contains: 'contains',
  in: 'is one of',
  not_in: 'is none of',
  exists: 'is set',
  not_exists: 'is not set',
};
const TAG_OPS = everyOf<Schemas['JourneyTagCondition']['op']>()(['has', 'has_not']);
const TOPIC_OPS = everyOf<Schemas['JourneyTopicCondition']['op']>()(['subscribed', 'unsubscribed']);
const SUBSCRIPTION_OPS = everyOf<Schemas['SegmentSubscriptionCondition']['op']>()([
  'subscribed',
  'unsubscribed',
  'suppressed',
]);
const DATE_FIELDS = everyOf<DateCondition['field']>()([
  'created_at',
  'last_activity_at',
  'last_email_opened_at',
  'last_email_clicked_at',
  'last_purchase_at',
]);
type DateOp = DateCondition['op'];
const DATE_OPS = everyOf<DateOp>()(['before', 'after', 'within_days', 'not_within_days', 'exists', 'not_exists']);
const DATE_OP_TEXT: Record<DateOp, string> = {
  before: 'before',
  after: 'after',
  within_days: 'within the last … days',
  not_within_days: 'not within the last … days',
  exists: 'is set',
  not_exists: 'is not set',
};
const COUNT_OPS = everyOf<Schemas['SegmentEventCountCondition']['op']>()(['at_least', 'at_most', 'exactly']);
type EngagementOp = Schemas['SegmentEngagementCondition']['op'];
const ENGAGEMENT_OPS = everyOf<EngagementOp>()(['human_opened', 'human_clicked', 'never_opened', 'not_opened']);
const ENGAGEMENT_TEXT: Record<EngagementOp, string> = {
  human_opened: 'opened an e-mail (a person)',
  human_clicked: 'clicked in an e-mail (a person)',
  never_opened: 'never opened an e-mail',
  not_opened: 'was sent one and opened none',
};
/** Which operators read one source, and which read every e-mail: the API refuses the others (422). */
const ANY_EMAIL_OPS: readonly EngagementOp[] = ['human_opened', 'human_clicked', 'never_opened'];
const SOURCE_OPS: readonly EngagementOp[] = ['human_opened', 'human_clicked', 'not_opened'];
type EngagementCondition = Schemas['SegmentEngagementCondition'];
type EngagementSource = NonNullable<EngagementCondition['source']>;

/** The journeys and broadcasts an engagement condition may read, by name. */
export interface EngagementSources {
  journeys: readonly { id: number; name: string }[];
  broadcasts: readonly { id: number; name: string }[];
}
/** A source as one select's value: `any`, `journey:<id>` or `broadcast:<id>`. */
const sourceKeyOf = (source: EngagementSource | undefined): string =>
  !source ? 'any' : 'journey_id' in source ? `journey:${source.journey_id}` : `broadcast:${source.broadcast_id}`;
const sourceOfKey = (key: string): EngagementSource | undefined => {
  const [kind, id] = key.split(':');
  if (kind === 'journey') return { journey_id: Number(id) };
  if (kind === 'broadcast') return { broadcast_id: Number(id) };
  return undefined;
};

/** The condition with its source changed, its operator made to fit (not_opened needs a source, never_opened none). */
export function withSource(c: EngagementCondition, source: EngagementSource | undefined): EngagementCondition {
  const { source: _old, ...rest } = c;
  if (!source) return rest.op === 'not_opened' ? { ...rest, op: 'never_opened' } : rest;
  return rest.op === 'never_opened' ? { ...rest, op: 'not_opened', source } : { ...rest, source };
}

const words = (op: string): string => op.replaceAll('_', ' ');

/** The condition a kind starts as when chosen: the smallest one the API takes, for the person to change. */
export function starterOf(kind: Kind): Condition {
  switch (kind) {
    case 'contact':
      return { on: 'contact', field: 'email', op: 'contains', value: '' };
    case 'custom_field':
      return { on: 'custom_field', name: '', op: 'eq', value: '' };
    case 'tag':
      return { on: 'tag', op: 'has', tag: '' };
    case 'topic':
      return { on: 'topic', topic_id: 0, op: 'subscribed' };
    case 'subscription':
      return { on: 'subscription', op: 'subscribed' };
    case 'date':
      return { on: 'date', field: 'last_activity_at', op: 'within_days', value: 30 };
    case 'event_count':
      return { on: 'event_count', event: '', op: 'at_least', count: 1 };
    case 'engagement':
      return { on: 'engagement', op: 'human_opened', within_days: 30 };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
const isMatch = (value: unknown): value is Match => value === 'all' || value === 'any';

/**
 * Whether the builder can show a definition: all/any over a list of groups, each all/any over a list of conditions of
 * a kind it knows. Everything else (a typo in the JSON, a kind the document does not have) stays for the JSON view
 * and the API to judge; the builder never drops what it cannot show.
 */
export function builderCanShow(value: unknown): value is Definition {
  if (!isRecord(value) || !isMatch(value.match) || !Array.isArray(value.groups)) return false;
  return value.groups.every(
    (group) =>
      isRecord(group) &&
      isMatch(group.match) &&
      Array.isArray(group.conditions) &&
      group.conditions.every(
        (condition) => isRecord(condition) && (KINDS as readonly unknown[]).includes(condition.on),
      ),
  );
}

/** What kind a scalar is, so its input and the JSON agree (a custom field's `"12"` and `12` differ to the API). */
type ValueType = 'text' | 'number' | 'boolean';
const typeOf = (value: Value | undefined): ValueType => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'number' ? 'number' : typeof first === 'boolean' ? 'boolean' : 'text';
};
const scalarAs = (text: string, type: ValueType): Scalar => {
  if (type === 'boolean') return text === 'true';
  if (type === 'number') {
    const n = Number(text);
    // A text that is not a number stays text: the API names it, rather than the builder losing it.
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  return text;
};
/** A list as typed: items apart by commas. */
export const listOf = (text: string, type: ValueType): Scalar[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => scalarAs(item, type));
const textOf = (value: Value | undefined): string =>
  value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);

/** The condition with `op` changed, its value made to fit it (none for exists, a list for in, one value otherwise). */
function withValueOp<C extends { op: ValueOp; value?: Value }>(condition: C, op: ValueOp): C {
  const { value, ...rest } = condition;
  if (op === 'exists' || op === 'not_exists') return { ...rest, op } as C;
  const type = typeOf(value);
  if (op === 'in' || op === 'not_in') {
    const list = Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value];
    return { ...rest, op, value: list } as C;
  }
  const one = Array.isArray(value) ? value[0] : value;
  return { ...rest, op, value: one ?? scalarAs('', type) } as C;
}

/** A date-time input's local text for an RFC 3339 instant, and back (the API takes the instant with its offset). */
const localOf = (instant: unknown): string => {
  if (typeof instant !== 'string') return '';
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
};
const instantOf = (local: string): string | undefined => {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
};

const focusSoon = (id: string) => setTimeout(() => (document.getElementById(id) as HTMLElement | null)?.focus(), 0);

/** A labelled select of `choices`, each shown by `text`. */
function Choice<T extends string>(props: {
  id: string;
  label: ComponentChildren;
  value: T;
  choices: readonly T[];
  text?: (choice: T) => string;
  onValue: (value: T) => void;
}) {
  const { id, label, value, choices, text = words, onValue } = props;
  return (
    <Field id={id} label={label}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onValue(event.currentTarget.value as T)}>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {text(choice)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A labelled whole-number input; empty when `optional` means absent. */
function Whole(props: {
  id: string;
  label: ComponentChildren;
  value: number | undefined;
  min: number;
  max: number;
  hint?: ComponentChildren;
  onValue: (value: number | undefined) => void;
}) {
  const { id, label, value, min, max, hint, onValue } = props;
  return (
    <Field id={id} label={label} hint={hint}>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={value === undefined ? '' : String(value)}
          onInput={(event) => {
            const text = event.currentTarget.value;
            if (text === '') onValue(undefined);
            else if (Number.isInteger(Number(text))) onValue(Number(text));
          }}
        />
      )}
    </Field>
  );
}

/** A labelled one-line text input. */
function Text(props: {
  id: string;
  label: ComponentChildren;
  value: string;
  maxLength?: number;
  hint?: ComponentChildren;
  onValue: (value: string) => void;
}) {
  const { id, label, value, maxLength, hint, onValue } = props;
  return (
    <Field id={id} label={label} hint={hint}>
      {(control) => (
        <input
          {...control}
          type="text"
          autocomplete="off"
          spellcheck={false}
          maxLength={maxLength}
          value={value}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** The operator and value of a contact or custom field condition: the value's input fits the operator and its type. */
function ValueInputs<C extends { op: ValueOp; value?: Value }>(props: {
  id: string;
  condition: C;
  onChange: (condition: C) => void;
}) {
  const { id, condition, onChange } = props;
  const { op, value } = condition;
  const type = typeOf(value);
  const setType = (next: ValueType) => {
    if (Array.isArray(value)) onChange({ ...condition, value: listOf(textOf(value), next) });
    else if (next === 'boolean') onChange({ ...condition, value: true });
    else if (next === 'number') {
      // A number stays a number while typed: text that is not one becomes 0, for the person to change.
      const n = scalarAs(textOf(value), 'number');
      onChange({ ...condition, value: typeof n === 'number' ? n : 0 });
    } else onChange({ ...condition, value: textOf(value) });
  };
  const takesValue = op !== 'exists' && op !== 'not_exists';
  const list = op === 'in' || op === 'not_in';
  return (
    <>
      <Choice
        id={`${id}-op`}
        label="Operator"
        value={op}
        choices={VALUE_OPS}
        text={(choice) => VALUE_OP_TEXT[choice]}
        onValue={(next) => onChange(withValueOp(condition, next))}
      />
      {takesValue && (
        <Choice<ValueType>
          id={`${id}-type`}
          label="Value is"
          value={type}
          choices={['text', 'number', 'boolean']}
          text={(choice) => (choice === 'boolean' ? 'true / false' : choice)}
          onValue={setType}
        />
      )}
      {takesValue && type === 'boolean' && !list && (
        <Choice<'true' | 'false'>
          id={`${id}-value`}
          label="Value"
          value={value === false ? 'false' : 'true'}
          choices={['true', 'false']}
          onValue={(next) => onChange({ ...condition, value: next === 'true' })}
        />
      )}
      {takesValue && (type !== 'boolean' || list) && (
        <Text
          id={`${id}-value`}
          label={list ? 'Values' : 'Value'}
          hint={list ? 'Apart by commas (1–50)' : undefined}
          maxLength={list ? undefined : 1000}
          value={textOf(value)}
          onValue={(text) => {
            if (list) return onChange({ ...condition, value: listOf(text, type) });
            const one = scalarAs(text, type);
            // Half a number ("-", "") leaves the value as it was rather than turn it into text.
            if (type !== 'number' || typeof one === 'number') onChange({ ...condition, value: one });
          }}
        />
      )}
    </>
  );
}

/** The inputs a condition's kind takes, after its Kind select. */
function ConditionInputs(props: {
  id: string;
  condition: Condition;
  topics: readonly { id: number; name: string }[];
  sources: EngagementSources;
  onChange: (condition: Condition) => void;
}) {
  const { id, condition: c, topics, sources, onChange } = props;
  const days = SEGMENT_LIMITS.withinDays;
  switch (c.on) {
    case 'contact':
      return (
        <>
          <Choice
            id={`${id}-field`}
            label="Field"
            value={c.field}
            choices={CONTACT_FIELDS}
            onValue={(field) => onChange({ ...c, field })}
          />
          <ValueInputs id={id} condition={c} onChange={onChange} />
        </>
      );
    case 'custom_field':
      return (
        <>
          <Text
            id={`${id}-name`}
            label="Custom field name"
            maxLength={64}
            value={c.name}
            onValue={(name) => onChange({ ...c, name })}
          />
          <ValueInputs id={id} condition={c} onChange={onChange} />
        </>
      );
    case 'tag':
      return (
        <>
          <Choice
            id={`${id}-op`}
            label="Operator"
            value={c.op}
            choices={TAG_OPS}
            onValue={(op) => onChange({ ...c, op })}
          />
          <Text id={`${id}-tag`} label="Tag" maxLength={100} value={c.tag} onValue={(tag) => onChange({ ...c, tag })} />
        </>
      );
    case 'topic':
      return (
        <>
          <Field id={`${id}-topic`} label="Topic">
            {(control) => (
              <select
                {...control}
                value={String(c.topic_id)}
                onChange={(event) => onChange({ ...c, topic_id: Number(event.currentTarget.value) })}
              >
                {!topics.some((topic) => topic.id === c.topic_id) && (
                  <option value={String(c.topic_id)}>{c.topic_id ? `Topic ${c.topic_id}` : 'Choose a topic'}</option>
                )}
                {topics.map((topic) => (
                  <option key={topic.id} value={String(topic.id)}>
                    {topic.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Choice
            id={`${id}-op`}
            label="Operator"
            value={c.op}
            choices={TOPIC_OPS}
            onValue={(op) => onChange({ ...c, op })}
          />
        </>
      );
    case 'subscription':
      return (
        <Choice
          id={`${id}-op`}
          label="The contact is"
          value={c.op}
          choices={SUBSCRIPTION_OPS}
          onValue={(op) => onChange({ ...c, op })}
        />
      );
    case 'date': {
      const setOp = (op: DateOp) => {
        const { value: _old, ...rest } = c;
        if (op === 'exists' || op === 'not_exists') onChange({ ...rest, op });
        else if (op === 'before' || op === 'after')
          onChange({ ...rest, op, value: typeof c.value === 'string' ? c.value : new Date().toISOString() });
        else onChange({ ...rest, op, value: typeof c.value === 'number' ? c.value : 30 });
      };
      return (
        <>
          <Choice
            id={`${id}-field`}
            label="Date"
            value={c.field}
            choices={DATE_FIELDS}
            onValue={(field) => onChange({ ...c, field })}
          />
          <Choice
            id={`${id}-op`}
            label="Operator"
            value={c.op}
            choices={DATE_OPS}
            text={(op) => DATE_OP_TEXT[op]}
            onValue={setOp}
          />
          {(c.op === 'before' || c.op === 'after') && (
            <Field id={`${id}-value`} label="Instant (your time)">
              {(control) => (
                <input
                  {...control}
                  type="datetime-local"
                  value={localOf(c.value)}
                  onInput={(event) => {
                    const value = instantOf(event.currentTarget.value);
                    if (value) onChange({ ...c, value });
                  }}
                />
              )}
            </Field>
          )}
          {(c.op === 'within_days' || c.op === 'not_within_days') && (
            <Whole
              id={`${id}-value`}
              label="Days"
              min={days.min}
              max={days.max}
              value={typeof c.value === 'number' ? c.value : undefined}
              onValue={(value) => onChange({ ...c, value: value ?? 0 })}
            />
          )}
        </>
      );
    }
    case 'event_count': {
      const extra = c.conditions?.length ?? 0;
      return (
        <>
          <Text
            id={`${id}-event`}
            label="Event type"
            maxLength={100}
            value={c.event}
            onValue={(event) => onChange({ ...c, event })}
          />
          <Choice
            id={`${id}-op`}
            label="Operator"
            value={c.op}
            choices={COUNT_OPS}
            onValue={(op) => onChange({ ...c, op })}
          />
          <Whole
            id={`${id}-count`}
            label="Times"
            min={SEGMENT_LIMITS.eventCount.min}
            max={SEGMENT_LIMITS.eventCount.max}
            value={c.count}
            onValue={(count) => onChange({ ...c, count: count ?? 0 })}
          />
          <Whole
            id={`${id}-days`}
            label="Within the last … days"
            hint="Empty: ever"
            min={days.min}
            max={days.max}
            value={c.within_days}
            onValue={(within) => {
              const { within_days: _old, ...rest } = c;
              onChange(within === undefined ? rest : { ...rest, within_days: within });
            }}
          />
          {extra > 0 && (
            <p class="hint">
              {extra === 1 ? 'One condition' : `${extra} conditions`} on the event’s own values (edit in the JSON view).
            </p>
          )}
        </>
      );
    }
    case 'engagement': {
      const key = sourceKeyOf(c.source);
      const known =
        key === 'any' ||
        [
          ...sources.journeys.map((j) => `journey:${j.id}`),
          ...sources.broadcasts.map((b) => `broadcast:${b.id}`),
        ].includes(key);
      const noWindow = c.op === 'never_opened' || c.op === 'not_opened';
      return (
        <>
          <Field id={`${id}-source`} label="Of">
            {(control) => (
              <select
                {...control}
                value={key}
                onChange={(event) => onChange(withSource(c, sourceOfKey(event.currentTarget.value)))}
              >
                <option value="any">any e-mail</option>
                {!known && <option value={key}>{key.replace(':', ' ')}</option>}
                {sources.journeys.length > 0 && (
                  <optgroup label="A journey’s e-mails">
                    {sources.journeys.map((journey) => (
                      <option key={journey.id} value={`journey:${journey.id}`}>
                        {journey.name}
                      </option>
                    ))}
                  </optgroup>
                )}
                {sources.broadcasts.length > 0 && (
                  <optgroup label="A broadcast">
                    {sources.broadcasts.map((broadcast) => (
                      <option key={broadcast.id} value={`broadcast:${broadcast.id}`}>
                        {broadcast.name}
                      </option>
                    ))}
                  </optgroup>
                )}
              </select>
            )}
          </Field>
          <Choice
            id={`${id}-op`}
            label="The contact"
            value={c.op}
            choices={c.source ? SOURCE_OPS : ANY_EMAIL_OPS}
            text={(op) => ENGAGEMENT_TEXT[op]}
            onValue={(op) => {
              const { within_days: within, ...rest } = c;
              onChange(
                op === 'never_opened' || op === 'not_opened' || within === undefined
                  ? { ...rest, op }
                  : { ...rest, op, within_days: within },
              );
            }}
          />
          {!noWindow && (
            <Whole
              id={`${id}-days`}
              label="Within the last … days"
              hint="Empty: ever"
              min={days.min}
              max={days.max}
              value={c.within_days}
              onValue={(within) => {
                const { within_days: _old, ...rest } = c;
                onChange(within === undefined ? rest : { ...rest, within_days: within });
              }}
            />
          )}
        </>
      );
    }
  }
}

const NO_SOURCES: EngagementSources = { journeys: [], broadcasts: [] };

const replaced = <T,>(list: readonly T[], at: number, item: T): T[] => list.map((old, i) => (i === at ? item : old));
const without = <T,>(list: readonly T[], at: number): T[] => list.filter((_, i) => i !== at);

/**
 * A segment's conditions as a form: all or any of its groups, each all or any of its conditions, each condition
 * chosen by kind with the operator and value inputs that kind takes. Every change writes the whole definition back
 * (the JSON view shows the same), so the builder holds no state of its own beyond focus.
 */
export function ConditionsBuilder(props: {
  id: string;
  value: Definition;
  onChange: (value: Definition) => void;
  topics: readonly { id: number; name: string }[];
  /** The journeys and broadcasts engagement conditions may read (none yet: "any e-mail" only, the JSON takes ids). */
  sources?: EngagementSources;
  readOnly?: boolean;
}) {
  const { id, value, onChange, topics, readOnly } = props;
  const sources = props.sources ?? NO_SOURCES;
  const setGroup = (at: number, group: Group) => onChange({ ...value, groups: replaced(value.groups, at, group) });
  const addGroup = () => {
    onChange({ ...value, groups: [...value.groups, { match: 'all', conditions: [starterOf('contact')] }] });
    focusSoon(`${id}-g${value.groups.length}-c0-kind`);
  };
  return (
    <fieldset class="conditions-builder" disabled={readOnly}>
      <legend>Conditions</legend>
      <Choice<Match>
        id={`${id}-match`}
        label="Contacts match"
        value={value.match}
        choices={['all', 'any']}
        text={(m) => (m === 'all' ? 'all of the groups' : 'any of the groups')}
        onValue={(match) => onChange({ ...value, match })}
      />
      {value.groups.map((group, g) => {
        const gid = `${id}-g${g}`;
        const setCondition = (at: number, condition: Condition) =>
          setGroup(g, { ...group, conditions: replaced(group.conditions, at, condition) });
        return (
          <fieldset key={g} class="card condition-group">
            <legend>Group {g + 1}</legend>
            <Choice<Match>
              id={`${gid}-match`}
              label={`Group ${g + 1} holds for`}
              value={group.match}
              choices={['all', 'any']}
              text={(m) => (m === 'all' ? 'all of its conditions' : 'any of its conditions')}
              onValue={(match) => setGroup(g, { ...group, match })}
            />
            <ol class="condition-list">
              {group.conditions.map((condition, c) => {
                const cid = `${gid}-c${c}`;
                return (
                  <li key={c}>
                    <fieldset class="condition">
                      <legend>
                        Condition {c + 1} of group {g + 1}
                      </legend>
                      <div class="condition-inputs">
                        <Choice<Kind>
                          id={`${cid}-kind`}
                          label="Kind"
                          value={condition.on}
                          choices={KINDS}
                          text={(kind) => KIND_TEXT[kind]}
                          onValue={(kind) => setCondition(c, starterOf(kind))}
                        />
                        <ConditionInputs
                          id={cid}
                          condition={condition}
                          topics={topics}
                          sources={sources}
                          onChange={(next) => setCondition(c, next)}
                        />
                      </div>
                      {group.conditions.length > 1 && (
                        <button
                          type="button"
                          class="small secondary"
                          onClick={() => {
                            setGroup(g, { ...group, conditions: without(group.conditions, c) });
                            focusSoon(`${gid}-add`);
                          }}
                        >
                          Remove condition {c + 1} of group {g + 1}
                        </button>
                      )}
                    </fieldset>
                  </li>
                );
              })}
            </ol>
            <div class="form-actions">
              <button
                id={`${gid}-add`}
                type="button"
                class="small secondary"
                disabled={group.conditions.length >= SEGMENT_LIMITS.conditionsPerGroup}
                onClick={() => {
                  setGroup(g, { ...group, conditions: [...group.conditions, starterOf('contact')] });
                  focusSoon(`${gid}-c${group.conditions.length}-kind`);
                }}
              >
                Add a condition to group {g + 1}
              </button>
              {value.groups.length > 1 && (
                <button
                  type="button"
                  class="small secondary"
                  onClick={() => {
                    onChange({ ...value, groups: without(value.groups, g) });
                    focusSoon(`${id}-add-group`);
                  }}
                >
                  Remove group {g + 1}
                </button>
              )}
            </div>
          </fieldset>
        );
      })}
      <button
        id={`${id}-add-group`}
        type="button"
        class="small secondary"
        disabled={value.groups.length >= SEGMENT_LIMITS.groups}
        onClick={addGroup}
      >
        Add a group
      </button>
    </fieldset>
  );
}
