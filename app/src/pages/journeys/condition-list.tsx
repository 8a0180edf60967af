import { useState } from 'preact/hooks';
import { CONTACT_CONDITION_FIELDS } from '../../../../shared/domain/journeys/definition/types.js';
import type { Condition, ConditionValue, ValueOp } from '../../../../shared/domain/journeys/definition/types.js';
import { JOURNEY_LIMITS } from '../../../../shared/public/journey-rules.js';
import { fieldErrorOf } from '../../data/answer.js';
import { controlPropsOf, FieldError } from '../../ui/field.js';
import { addCondition, changeCondition, newCondition, removeCondition } from './journey-draft-edit.js';
import {
  idOf,
  MissingOption,
  numberOrText,
  PathLines,
  PathNumber,
  PathSelect,
  PathText,
  usePanel,
} from './step-forms/fields.js';

type On = Condition['on'];

/** What each kind of condition reads, for people. */
export const CONDITION_KIND_NAMES: Record<On, string> = {
  event: 'A property of the event',
  contact: 'A field of the contact',
  custom_field: 'A custom field of the contact',
  tag: 'A tag of the contact',
  topic: 'A topic of the contact',
  engagement: 'The engagement with an earlier e-mail',
  segment: 'Membership of a segment',
};
const ALL_KINDS = Object.keys(CONDITION_KIND_NAMES) as On[];
/** Where an event is matched (a wait for an event), membership is not read: branch steps only read it. */
export const EVENT_MATCH_KINDS: readonly On[] = ALL_KINDS.filter((on) => on !== 'segment');

const VALUE_OP_NAMES: Record<ValueOp, string> = {
  eq: 'is',
  neq: 'is not',
  in: 'is one of',
  not_in: 'is none of',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  contains: 'contains',
  exists: 'is present',
  not_exists: 'is absent',
};
const VALUE_OPS = Object.keys(VALUE_OP_NAMES) as ValueOp[];

/** The operators each kind takes, with their names: a value's eleven, a tag's, a topic's, an engagement's. */
const OPS_OF: Record<On, readonly { op: string; name: string }[]> = {
  event: VALUE_OPS.map((op) => ({ op, name: VALUE_OP_NAMES[op] })),
  contact: VALUE_OPS.map((op) => ({ op, name: VALUE_OP_NAMES[op] })),
  custom_field: VALUE_OPS.map((op) => ({ op, name: VALUE_OP_NAMES[op] })),
  tag: [
    { op: 'has', name: 'has the tag' },
    { op: 'has_not', name: 'has not the tag' },
  ],
  topic: [
    { op: 'subscribed', name: 'is subscribed to' },
    { op: 'unsubscribed', name: 'is not subscribed to' },
  ],
  engagement: [
    { op: 'human_opened', name: 'a person opened it' },
    { op: 'human_clicked', name: 'a person clicked in it' },
    { op: 'neither', name: 'neither opened nor clicked by a person' },
  ],
  segment: [
    { op: 'member', name: 'is a member of' },
    { op: 'not_member', name: 'is not a member of' },
  ],
};

/** Whether the condition compares a value (event, contact and custom field conditions). */
const readsValue = (condition: Condition): condition is Extract<Condition, { value?: ConditionValue }> =>
  condition.on === 'event' || condition.on === 'contact' || condition.on === 'custom_field';

const takesList = (op: string) => op === 'in' || op === 'not_in';
const takesNoValue = (op: string) => op === 'exists' || op === 'not_exists';

type ValueKind = 'string' | 'number' | 'boolean';
const kindOfValue = (value: ConditionValue | undefined): ValueKind => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'number' ? 'number' : typeof first === 'boolean' ? 'boolean' : 'string';
};
const asKind = (item: string | number | boolean, kind: ValueKind): string | number | boolean =>
  kind === 'boolean'
    ? // Yes unless it said no: an empty text becomes the select's first choice.
      !(item === false || item === 'false')
    : kind === 'number'
      ? numberOrText(String(item), true)
      : String(item);

/** The contact's fields whose values are not text: what their compared value starts as. */
const CONTACT_FIELD_KINDS: Partial<Record<string, ValueKind>> = {
  is_subscribed: 'boolean',
  health_score: 'number',
  total_emails_sent: 'number',
  total_emails_opened: 'number',
  total_emails_clicked: 'number',
};

/** A contact condition's value as the newly chosen field reads it: a number for a count, yes or no for a flag. */
function valueForField(field: string, condition: Condition): { value?: ConditionValue } {
  if (condition.on !== 'contact' || condition.value === undefined) return {};
  const kind = CONTACT_FIELD_KINDS[field] ?? 'string';
  if (kindOfValue(condition.value) === kind) return {};
  const items = Array.isArray(condition.value) ? condition.value : [condition.value];
  // A text that does not read as the new kind starts empty (a number field's text stays, for the API to refuse).
  const converted = items.map((item) => (item === '' && kind === 'number' ? 0 : asKind(item, kind)));
  return { value: Array.isArray(condition.value) ? converted : (converted[0] ?? '') };
}

/** A value condition with another operator: its value kept as far as the operator takes one (a list, one, none). */
function withOp(condition: Condition, op: string): Condition {
  if (!readsValue(condition)) return { ...condition, op } as Condition;
  const { value, ...rest } = condition as Condition & { value?: ConditionValue };
  if (takesNoValue(op)) return { ...rest, op } as Condition;
  const items = value === undefined ? [] : Array.isArray(value) ? [...value] : [value];
  const next: ConditionValue = takesList(op) ? items : (items[0] ?? '');
  return { ...rest, op, value: next } as Condition;
}

/** The paths of a condition list's fields (the list itself, and each condition's members that have a field). */
export function conditionPathsOf(path: string, conditions: readonly Condition[] | undefined): string[] {
  return [
    path,
    ...(conditions ?? []).flatMap((condition, at) => {
      const base = `${path}.${at}`;
      const subject = {
        event: 'path',
        contact: 'field',
        custom_field: 'name',
        tag: 'tag',
        topic: 'topic_id',
        engagement: 'send_step',
        segment: 'segment_id',
      }[condition.on];
      return [
        `${base}.on`,
        ...(subject ? [`${base}.${subject}`] : []),
        `${base}.op`,
        ...(readsValue(condition) && !takesNoValue(condition.op) ? [`${base}.value`] : []),
      ];
    }),
  ];
}

/**
 * A list of conditions of the journey schema, all of which must hold: each reads one thing (`on`), compares it with
 * an operator the kind takes and, for the value operators, a typed value (text, number, yes/no; a list for "is one
 * of"). Each member is a field at its JSON path, where the API's issue about it shows.
 */
export function ConditionList(props: {
  path: string;
  legend: string;
  conditions: readonly Condition[] | undefined;
  onChange: (conditions: Condition[]) => void;
  /** The kinds offered (a trigger's `or_when` reads the event only). */
  kinds?: readonly On[];
  /** The send steps an engagement condition may read. */
  sendSteps: readonly string[];
  hint?: string;
}) {
  const { path, legend, conditions = [], onChange, kinds = ALL_KINDS, sendSteps, hint } = props;
  const panel = usePanel();
  const id = idOf(path);
  const error = fieldErrorOf(panel.failure, path);
  const topicIds = panel.topics.map((topic) => topic.id);
  const segmentIds = panel.segments.map((segment) => segment.id);
  return (
    <fieldset class="choice-group condition-list" {...controlPropsOf(id, error, hint !== undefined)}>
      <legend>{legend}</legend>
      {hint !== undefined && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {conditions.length === 0 && <p class="hint">No condition.</p>}
      <ol class="input-list">
        {conditions.map((condition, at) => (
          <li key={at}>
            <ConditionItem
              path={`${path}.${at}`}
              number={at + 1}
              condition={condition}
              kinds={kinds}
              sendSteps={sendSteps}
              onChange={(changed) => onChange(changeCondition(conditions, at, changed))}
              onRemove={() => onChange(removeCondition(conditions, at))}
            />
          </li>
        ))}
      </ol>
      <FieldError id={id} message={error} />
      {!panel.readOnly && conditions.length < JOURNEY_LIMITS.conditions && (
        <button
          type="button"
          class="small secondary"
          onClick={() =>
            onChange(addCondition(conditions, newCondition(kinds[0] ?? 'event', { sendSteps, topicIds, segmentIds })))
          }
        >
          Add a condition to “{legend}”
        </button>
      )}
    </fieldset>
  );
}

function ConditionItem(props: {
  path: string;
  number: number;
  condition: Condition;
  kinds: readonly On[];
  sendSteps: readonly string[];
  onChange: (condition: Condition) => void;
  onRemove: () => void;
}) {
  const { path, number, condition, kinds, sendSteps, onChange, onRemove } = props;
  const panel = usePanel();
  const topicIds = panel.topics.map((topic) => topic.id);
  const segmentIds = panel.segments.map((segment) => segment.id);
  const set = (changes: Partial<Record<string, unknown>>) => onChange({ ...condition, ...changes } as Condition);
  return (
    <fieldset class="field-group condition">
      <legend>Condition {number}</legend>
      <PathSelect
        path={`${path}.on`}
        label="Reads"
        value={condition.on}
        onValue={(on) => onChange(newCondition(on as On, { sendSteps, topicIds, segmentIds }))}
      >
        {[...new Set([...kinds, condition.on])].map((on) => (
          <option key={on} value={on}>
            {CONDITION_KIND_NAMES[on] ?? on}
          </option>
        ))}
      </PathSelect>
      <Subject path={path} condition={condition} sendSteps={sendSteps} set={set} />
      <PathSelect
        path={`${path}.op`}
        label="Test"
        value={condition.op}
        onValue={(op) => onChange(withOp(condition, op))}
      >
        {OPS_OF[condition.on].map((one) => (
          <option key={one.op} value={one.op}>
            {one.name}
          </option>
        ))}
        <MissingOption value={condition.op} among={OPS_OF[condition.on].map((one) => one.op)} text={condition.op} />
      </PathSelect>
      {readsValue(condition) && !takesNoValue(condition.op) && (
        <ValueFields path={`${path}.value`} op={condition.op} value={condition.value} set={(value) => set({ value })} />
      )}
      {!panel.readOnly && (
        <div class="row-actions">
          <button type="button" class="small secondary" onClick={onRemove}>
            Remove condition {number}
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** What the condition reads: the event's property, the contact's field, the custom field, tag, topic, send step or segment. */
function Subject(props: {
  path: string;
  condition: Condition;
  sendSteps: readonly string[];
  set: (changes: Partial<Record<string, unknown>>) => void;
}) {
  const { path, condition, sendSteps, set } = props;
  const { topics, segments } = usePanel();
  switch (condition.on) {
    case 'event':
      return (
        <PathText
          path={`${path}.path`}
          label="Event property"
          hint="plan, amount, metadata.source, payload.cart_id, or a name of the event’s body."
          value={condition.path}
          onValue={(value) => set({ path: value })}
          maxLength={200}
        />
      );
    case 'contact':
      return (
        <PathSelect
          path={`${path}.field`}
          label="Contact field"
          value={condition.field}
          onValue={(field) => set({ field, ...valueForField(field, condition) })}
        >
          {CONTACT_CONDITION_FIELDS.map((field) => (
            <option key={field} value={field}>
              {field.replace(/_/g, ' ')}
            </option>
          ))}
          <MissingOption value={condition.field} among={CONTACT_CONDITION_FIELDS} text={condition.field} />
        </PathSelect>
      );
    case 'custom_field':
      return (
        <PathText
          path={`${path}.name`}
          label="Custom field name"
          value={condition.name}
          onValue={(name) => set({ name })}
          maxLength={64}
        />
      );
    case 'tag':
      return (
        <PathText
          path={`${path}.tag`}
          label="Tag"
          value={condition.tag}
          onValue={(tag) => set({ tag })}
          maxLength={100}
        />
      );
    case 'topic': {
      const value = String(condition.topic_id);
      return (
        <PathSelect
          path={`${path}.topic_id`}
          label="Topic"
          value={value}
          onValue={(id) => set({ topic_id: Number(id) })}
        >
          {topics.map((topic) => (
            <option key={topic.id} value={String(topic.id)}>
              {topic.name}
            </option>
          ))}
          <MissingOption
            value={value}
            among={topics.map((topic) => String(topic.id))}
            text={condition.topic_id > 0 ? `Topic #${value} (not found)` : 'Choose a topic'}
          />
        </PathSelect>
      );
    }
    case 'engagement':
      return (
        <PathSelect
          path={`${path}.send_step`}
          label="E-mail of the send step"
          hint="Opens and clicks by privacy proxies and link scanners never count."
          value={condition.send_step}
          onValue={(step) => set({ send_step: step })}
        >
          {sendSteps.map((step) => (
            <option key={step} value={step}>
              {step}
            </option>
          ))}
          <MissingOption
            value={condition.send_step}
            among={sendSteps}
            text={`${condition.send_step} (not a send step before this one)`}
          />
          {condition.send_step === '' && <option value="">Choose a send step</option>}
        </PathSelect>
      );
    case 'segment': {
      const value = String(condition.segment_id);
      return (
        <PathSelect
          path={`${path}.segment_id`}
          label="Segment"
          hint="As the segment engine last saw the contact: a change of the last seconds may not count yet."
          value={value}
          onValue={(id) => set({ segment_id: Number(id) })}
        >
          {segments.map((segment) => (
            <option key={segment.id} value={String(segment.id)}>
              {segment.name}
            </option>
          ))}
          <MissingOption
            value={value}
            among={segments.map((segment) => String(segment.id))}
            text={condition.segment_id > 0 ? `Segment #${value} (not found)` : 'Choose a segment'}
          />
        </PathSelect>
      );
    }
    default:
      return null;
  }
}

/** A value operator's value: its kind (text, number, yes/no), then one value, or a list, one per line, for in / not in. */
function ValueFields(props: {
  path: string;
  op: string;
  value: ConditionValue | undefined;
  set: (value: ConditionValue) => void;
}) {
  const { path, op, value, set } = props;
  // The kind chosen stays while a number is being typed ("-", "1e"): the value held is then text, for the API to refuse.
  const [chosen, setChosen] = useState<ValueKind>(() => kindOfValue(value));
  const held = kindOfValue(value);
  const kind = held === 'string' && chosen === 'number' ? 'number' : held;
  const items = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const convert = (to: ValueKind): ConditionValue => {
    const converted = items.map((item) => asKind(item, to));
    return takesList(op) ? converted : (converted[0] ?? (to === 'boolean' ? true : ''));
  };
  return (
    <>
      <PathSelect
        path={`${path}_kind`}
        label="Compared with"
        value={kind}
        onValue={(to) => {
          setChosen(to as ValueKind);
          set(convert(to as ValueKind));
        }}
      >
        <option value="string">Text</option>
        <option value="number">A number</option>
        <option value="boolean">Yes or no</option>
      </PathSelect>
      {takesList(op) ? (
        <PathLines
          path={path}
          label="Values"
          hint="One per line."
          value={items.map(String)}
          onValue={(lines) => set(lines.map((line) => asKind(line, kind)))}
        />
      ) : kind === 'boolean' ? (
        <PathSelect path={path} label="Value" value={String(value === true)} onValue={(v) => set(v === 'true')}>
          <option value="true">Yes (true)</option>
          <option value="false">No (false)</option>
        </PathSelect>
      ) : kind === 'number' ? (
        <PathNumber
          path={path}
          label="Value"
          decimals
          value={typeof value === 'number' || typeof value === 'string' ? value : undefined}
          onValue={(v) => set(v ?? '')}
        />
      ) : (
        <PathText
          path={path}
          label="Value"
          value={typeof value === 'string' ? value : String(value ?? '')}
          onValue={(v) => set(v)}
          maxLength={1000}
        />
      )}
    </>
  );
}
