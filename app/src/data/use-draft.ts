import { useState } from 'preact/hooks';

/** The keys of a draft whose values are text: the ones a text input or a select edits as typed. */
type TextKey<D> = { [K in keyof D]: D[K] extends string ? K : never }[keyof D] & string;

/**
 * `bind(key)` for a draft a form is given (`draft` and `onChange` from the part that keeps it): the props that tie its
 * text field `key` to a TextField or SelectField.
 */
export function bindOf<D extends object>(draft: D, onChange: (draft: D) => void) {
  return <K extends TextKey<D>>(name: K) => ({
    name,
    value: draft[name] as string,
    onValue: (value: string) => onChange({ ...draft, [name]: value }),
  });
}

/**
 * A form's draft (a filter bar, an invitation) until it is sent. `bind(key)` ties one text field of it to the kit's
 * TextField or SelectField: the control shows `draft[key]`, a change sets it, and the field shows the API's error
 * about `key`, the draft's keys being the body's (or the query's) names.
 */
export function useDraft<D extends object>(initial: D | (() => D)) {
  const [draft, setDraft] = useState<D>(initial);
  return { draft, setDraft, bind: bindOf(draft, setDraft) };
}
