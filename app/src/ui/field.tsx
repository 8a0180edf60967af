import type { ComponentChildren } from 'preact';
import { type Failure, fieldErrorOf } from '../data/answer.js';
import { useFormState } from './form.js';

/** What a control gets from its field: its id, and its error and hint as its description while it has them. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/** The id of a control's (or group's, or button's) error element. */
export const errorIdOf = (id: string): string => `${id}-error`;

/**
 * The one place a control is tied to its error and hint: `aria-describedby` names the error first (`<id>-error`),
 * then the hint (`<id>-hint`), then any other description; `aria-invalid` while the API refuses it. Also for a group
 * (a fieldset of radios).
 */
export function controlPropsOf(
  id: string,
  error: string | undefined,
  hasHint: boolean,
  describedBy: readonly string[] = [],
): ControlProps {
  const described = [error ? errorIdOf(id) : '', hasHint ? `${id}-hint` : '', ...describedBy].filter(Boolean).join(' ');
  return {
    id,
    ...(described ? { 'aria-describedby': described } : {}),
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
}

/** The error of a control or group, under it, where controlPropsOf points (`<id>-error`). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={errorIdOf(id)} class="field-error">
      {message}
    </p>
  ) : null;
}

/**
 * A labelled control: its label, the control (drawn by `children` with the props it must spread), the API's error
 * item about `name` (from the Form's failure, or `failure`), and its hint. In a Form, the field's error is not
 * repeated in the FailureAlert. `check`: the control before its label (a checkbox, a radio).
 */
export function Field(props: {
  id: string;
  label: ComponentChildren;
  /** The error items' `key` this field shows (the request body's member). */
  name?: string;
  hint?: ComponentChildren;
  failure?: Failure | undefined;
  check?: boolean;
  /** Ids of other elements that describe the control (a paragraph above the form), after its error and hint. */
  describedBy?: readonly string[];
  class?: string;
  children: (control: ControlProps) => ComponentChildren;
}) {
  const { id, label, name, hint, check, children } = props;
  const form = useFormState();
  if (name && form) form.shown.add(name);
  const error = name ? fieldErrorOf(props.failure ?? form?.failure, name) : undefined;
  const control = children(controlPropsOf(id, error, hint !== undefined, props.describedBy));
  const labelled = <label for={id}>{label}</label>;
  return (
    <div class={[check ? 'field check' : 'field', props.class].filter(Boolean).join(' ')}>
      {check ? control : labelled}
      {check ? labelled : control}
      <FieldError id={id} message={error} />
      {hint !== undefined && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
    </div>
  );
}
