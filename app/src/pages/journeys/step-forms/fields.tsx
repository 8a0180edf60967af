import { type ComponentChildren, createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';
import type { Failure } from '../../../data/answer.js';
import { Field } from '../../../ui/field.js';
import type { JourneyDefinition, JourneyStep } from '../journey-text.js';

/**
 * The step panel's fields. Each edits one member of the definition, named by its JSON path (`steps.3.timeout_minutes`,
 * `trigger.reentry.days`): the path is the field's error key, so the API's issue at that path shows under it, and
 * its element id (`jy-panel-steps-3-timeout_minutes`: indexes and the schema's names only, never the client's text).
 */

/** What every field of the panel reads: the issues by the path of the field showing each, and whether it may change. */
export interface PanelState {
  /** The panel's issues as error items keyed by the path of the field that shows each. */
  failure: Failure | undefined;
  readOnly: boolean;
  definition: JourneyDefinition;
  templates: readonly { id: number; name: string }[];
  topics: readonly { id: number; name: string }[];
  /** The client's segments (a segment trigger's, a segment condition's picker). */
  segments: readonly { id: number; name: string }[];
}

export const PanelContext = createContext<PanelState | undefined>(undefined);

export function usePanel(): PanelState {
  const state = useContext(PanelContext);
  if (!state) throw new Error('A step panel field is drawn outside the step panel');
  return state;
}

/** A field's element id from its JSON path. */
export const idOf = (path: string): string => `jy-panel-${path.replace(/\./g, '-')}`;

interface PathProps {
  path: string;
  /** The element id when the path holds the client's text (a custom field's name): else the path's. */
  id?: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
}

/** A one-line text. `optional`: an emptied field is left out (undefined) rather than an empty string. */
export function PathText(
  props: PathProps & {
    value: string | undefined;
    onValue: (value: string) => void;
    maxLength?: number;
    placeholder?: string;
    type?: 'text' | 'time';
    onCommit?: (value: string) => void;
    error?: string | undefined;
  },
) {
  const panel = usePanel();
  const { path, label, hint, value, onValue, maxLength, placeholder, type = 'text', onCommit } = props;
  // A client-side error (a rename the panel refuses) stands beside the API's at the same path.
  const failure = props.error
    ? { message: props.error, errors: [{ key: path, condition: 'format', error: props.error }] }
    : panel.failure;
  return (
    <Field id={props.id ?? idOf(path)} label={label} name={path} hint={hint} failure={failure}>
      {(control) => (
        <input
          {...control}
          // Preact types each input type apart; text and time take the same attributes here.
          type={type as 'text'}
          value={value ?? ''}
          maxLength={maxLength}
          placeholder={placeholder}
          spellcheck={false}
          autocomplete="off"
          disabled={panel.readOnly}
          onInput={(event) => onValue(event.currentTarget.value)}
          onChange={onCommit ? (event) => onCommit(event.currentTarget.value) : undefined}
        />
      )}
    </Field>
  );
}

/**
 * A number typed as text: a number when it reads as one (digits, and with `decimals` a fraction), else the text as
 * typed, which the definition keeps for the API to refuse at this field. `undefined` when emptied (`optional`).
 */
export const numberOrText = (raw: string, decimals = false): number | string => {
  const trimmed = raw.trim();
  const pattern = decimals ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/;
  return pattern.test(trimmed) ? Number(trimmed) : raw;
};

/** Keeps the text being typed while it still means the value held (so "1." or "04" are not rewritten under the caret). */
function useTyped<T>(value: T, format: (value: T) => string, parse: (text: string) => T) {
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const same = typed !== undefined && JSON.stringify(parse(typed)) === JSON.stringify(value);
  return { text: same ? (typed as string) : format(value), setTyped };
}

export function PathNumber(
  props: PathProps & {
    value: number | string | undefined;
    onValue: (value: number | string | undefined) => void;
    decimals?: boolean;
    optional?: boolean;
  },
) {
  const panel = usePanel();
  const { path, label, hint, value, onValue, decimals, optional } = props;
  const parse = (text: string) => (optional && text.trim() === '' ? undefined : numberOrText(text, decimals));
  const { text, setTyped } = useTyped(value, (v) => (v === undefined ? '' : String(v)), parse);
  return (
    <Field id={props.id ?? idOf(path)} label={label} name={path} hint={hint} failure={panel.failure}>
      {(control) => (
        <input
          {...control}
          type="text"
          inputMode={decimals ? 'decimal' : 'numeric'}
          value={text}
          autocomplete="off"
          disabled={panel.readOnly}
          onInput={(event) => {
            setTyped(event.currentTarget.value);
            onValue(parse(event.currentTarget.value));
          }}
        />
      )}
    </Field>
  );
}

/** A list of texts, one per line (blank lines left out). */
export function PathLines(
  props: PathProps & { value: readonly string[] | undefined; onValue: (value: string[]) => void; rows?: number },
) {
  const panel = usePanel();
  const { path, label, hint, value = [], onValue, rows = 3 } = props;
  const parse = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  const { text, setTyped } = useTyped([...value], (v) => v.join('\n'), parse);
  return (
    <Field id={props.id ?? idOf(path)} label={label} name={path} hint={hint} failure={panel.failure}>
      {(control) => (
        <textarea
          {...control}
          rows={rows}
          value={text}
          spellcheck={false}
          autocomplete="off"
          disabled={panel.readOnly}
          onInput={(event) => {
            setTyped(event.currentTarget.value);
            onValue(parse(event.currentTarget.value));
          }}
        />
      )}
    </Field>
  );
}

export function PathSelect(
  props: PathProps & { value: string; onValue: (value: string) => void; children: ComponentChildren },
) {
  const panel = usePanel();
  const { path, label, hint, value, onValue, children } = props;
  return (
    <Field id={props.id ?? idOf(path)} label={label} name={path} hint={hint} failure={panel.failure}>
      {(control) => (
        <select
          {...control}
          value={value}
          disabled={panel.readOnly}
          onChange={(event) => onValue(event.currentTarget.value)}
        >
          {children}
        </select>
      )}
    </Field>
  );
}

export function PathCheck(props: PathProps & { checked: boolean; onChecked: (checked: boolean) => void }) {
  const panel = usePanel();
  const { path, label, hint, checked, onChecked } = props;
  return (
    <Field id={props.id ?? idOf(path)} label={label} name={path} hint={hint} failure={panel.failure} check>
      {(control) => (
        <input
          {...control}
          type="checkbox"
          checked={checked}
          disabled={panel.readOnly}
          onChange={(event) => onChecked(event.currentTarget.checked)}
        />
      )}
    </Field>
  );
}

/** An option for a value the choices do not hold (a step or template id typed in the JSON), so the select shows it. */
export function MissingOption({ value, among, text }: { value: string; among: readonly string[]; text: string }) {
  return value !== '' && !among.includes(value) ? <option value={value}>{text}</option> : null;
}

/** The step an edge leads to: another step of the definition, or the end of the run (null). */
export function NextSelect(props: {
  path: string;
  label: ComponentChildren;
  value: string | null;
  /** The step whose edge it is: not offered (a step leading to itself is a cycle). */
  self?: string;
  onValue: (next: string | null) => void;
  hint?: ComponentChildren;
}) {
  const { definition } = usePanel();
  const { path, label, value, self, onValue, hint } = props;
  const others = definition.steps.filter((step) => step.id !== self);
  const ids = others.map((step) => step.id);
  return (
    <PathSelect path={path} label={label} hint={hint} value={value ?? ''} onValue={(v) => onValue(v === '' ? null : v)}>
      <option value="">End: the run ends here</option>
      {others.map((step) => (
        <option key={step.id} value={step.id}>
          {stepOptionText(step)}
        </option>
      ))}
      <MissingOption value={value ?? ''} among={ids} text={`${value} (no such step)`} />
    </PathSelect>
  );
}

/** A step in a list of choices: its name (or id) and kind. */
export const stepOptionText = (step: JourneyStep): string =>
  `${step.name ? `${step.name} (${step.id})` : step.id} · ${step.type.replace(/_/g, ' ')}`;

const UNITS = [
  { size: 1440, name: 'days' },
  { size: 60, name: 'hours' },
  { size: 1, name: 'minutes' },
] as const;

/** The largest unit a number of minutes is a whole count of. */
const unitOf = (minutes: number): number => UNITS.find((unit) => minutes % unit.size === 0)?.size ?? 1;

/**
 * A duration held in minutes, typed as an amount and a unit (minutes, hours, days). The unit chosen stays while the
 * amount is typed; a value that is not a whole count of it (changed in the JSON) shows in its largest whole unit.
 * An amount that is not a whole number is kept as typed, for the API to refuse at this field.
 */
export function PathDuration(
  props: PathProps & { value: number | string; onValue: (minutes: number | string) => void },
) {
  const panel = usePanel();
  const { path, label, hint, value, onValue } = props;
  const [chosen, setChosen] = useState<number>(() => (typeof value === 'number' ? unitOf(value) : 1));
  const unit = typeof value !== 'number' || value % chosen === 0 ? chosen : unitOf(value);
  const amountOf = (minutes: number | string) => (typeof minutes === 'number' ? minutes / unit : minutes);
  const parse = (text: string) => {
    const amount = numberOrText(text);
    return typeof amount === 'number' ? amount * unit : amount;
  };
  const { text, setTyped } = useTyped(value, (v) => String(amountOf(v)), parse);
  const unitId = `${idOf(path)}-unit`;
  return (
    <div class="duration">
      <Field id={props.id ?? idOf(path)} label={label} name={path} hint={hint} failure={panel.failure}>
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="numeric"
            value={text}
            autocomplete="off"
            disabled={panel.readOnly}
            onInput={(event) => {
              setTyped(event.currentTarget.value);
              onValue(parse(event.currentTarget.value));
            }}
          />
        )}
      </Field>
      <Field id={unitId} label="Unit">
        {(control) => (
          <select
            {...control}
            value={String(unit)}
            disabled={panel.readOnly}
            onChange={(event) => {
              const size = Number(event.currentTarget.value);
              setChosen(size);
              // The amount stays, counted in the new unit: 4 hours become 4 days.
              const amount = amountOf(value);
              onValue(typeof amount === 'number' ? amount * size : amount);
            }}
          >
            {UNITS.map((one) => (
              <option key={one.size} value={String(one.size)}>
                {one.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
