import { useState } from 'preact/hooks';

/** The keys of a draft whose values are text: the ones a text input or a select edits as typed. */
type TextKey<D> = { [K in keyof D]: D[K] extends string ? K : never }[keyof D] & string;

/**
 * A form's draft (a filter bar, an invitation) until it is sent. `bind(key)` ties one text field of it to the kit's
 * TextField or SelectField: the control shows `draft[key]`, a change sets it, and the field shows the API's error
 * about `key`, the draft's keys being the body's (or the query's) names.
 */
export function useDraft<D extends object>(initial: D | (() => D)) {
  const [draft, setDraft] = useState<D>(initial);
  const bind = <K extends TextKey<D>>(name: K) => ({
    name,
    value: draft[name] as string,
    onValue: (value: string) => setDraft((before) => ({ ...before, [name]: value })),
  });
  return { draft, setDraft, bind };
}
