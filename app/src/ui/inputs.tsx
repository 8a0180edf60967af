import type { ComponentChildren, HTMLAttributes } from 'preact';
import type { Failure } from '../data/answer.js';
import { Field } from './field.js';

/** What a Field says about its control: its id, label, the error key it shows, its hint, a failure outside a Form. */
interface FieldLabels {
  id: string;
  label: ComponentChildren;
  name?: string;
  hint?: ComponentChildren;
  failure?: Failure | undefined;
}

/**
 * The common labelled control, a one-line text input (or url, e-mail, search) bound to a value, so a form states only
 * what differs (its type, bound, placeholder). A control of another shape (a textarea, a number) draws its own in a
 * Field.
 */
export function TextField(
  props: FieldLabels & {
    value: string;
    onValue: (value: string) => void;
    type?: 'text' | 'url' | 'email' | 'search';
    maxLength?: number;
    placeholder?: string;
    spellcheck?: boolean;
    /** The keyboard a phone shows: `numeric` for a number typed as text (the API judges it). */
    inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
    /** What the browser may fill in (`email` for one's own address); off unless said, a form's fields being data. */
    autocomplete?: string;
    required?: boolean;
  },
) {
  const {
    value,
    onValue,
    type = 'text',
    maxLength,
    placeholder,
    spellcheck,
    inputMode,
    autocomplete = 'off',
    required,
    ...field
  } = props;
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          // Preact types each input type apart; these four take the same attributes.
          type={type as 'text'}
          // Named as the body's field, which a browser's autofill reads beside `autocomplete`.
          name={field.name}
          value={value}
          maxLength={maxLength}
          placeholder={placeholder}
          spellcheck={spellcheck}
          inputMode={inputMode}
          autocomplete={autocomplete}
          required={required}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** A labelled choice of one of its `<option>`s (the children), bound to a value. */
export function SelectField(
  props: FieldLabels & {
    value: string;
    onValue: (value: string) => void;
    children: ComponentChildren;
  },
) {
  const { value, onValue, children, ...field } = props;
  return (
    <Field {...field}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onValue(event.currentTarget.value)}>
          {children}
        </select>
      )}
    </Field>
  );
}

/** A labelled checkbox, or a radio of the group `group`: the control before its label. */
export function CheckField(
  props: FieldLabels & {
    checked: boolean;
    onChecked: (checked: boolean) => void;
    type?: 'checkbox' | 'radio';
    group?: string;
  },
) {
  const { checked, onChecked, type = 'checkbox', group, ...field } = props;
  return (
    <Field {...field} check>
      {(control) => (
        <input
          {...control}
          type={type}
          name={group}
          checked={checked}
          onChange={(event) => onChecked(event.currentTarget.checked)}
        />
      )}
    </Field>
  );
}

/** The `<option>`s of a select, one per item of `of`: its value and the text it shows. */
export function Options<T>(props: {
  of: readonly T[];
  value: (item: T) => string | number;
  text: (item: T) => ComponentChildren;
}) {
  const { of, value, text } = props;
  return (
    <>
      {of.map((item) => (
        <option key={value(item)} value={value(item)}>
          {text(item)}
        </option>
      ))}
    </>
  );
}
