import { useCallback, useRef, useState } from 'preact/hooks';
import { type Action, useAction } from './use-action.js';

/** What a draft field becomes in the request body (a number from its text, null for an empty field, …). */
export type Encoders<D> = { readonly [K in keyof D]?: (value: D[K], draft: D) => unknown };

/** The words a save answers when the draft equals what is saved: nothing is sent. */
export const NOTHING_CHANGED = 'Nothing changed.';

const encoded = <D>(draft: D, key: keyof D, encoders: Encoders<D>): unknown => {
  const encode = encoders[key];
  return encode ? encode(draft[key], draft) : draft[key];
};

/**
 * The body of a PATCH: every field whose encoded value differs from the saved one's, encoded (so `' 5 '` against a
 * saved `'5'` is no change, and a field cleared to `''` goes as whatever its encoder makes of it, null for most).
 * `complete` adds what a changed field needs beside it (a minute needs its hour in the same request).
 */
export function patchOf<D extends object>(
  draft: D,
  saved: D,
  encoders: Encoders<D> = {},
  complete?: (body: Record<string, unknown>, draft: D) => Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(draft) as (keyof D & string)[]) {
    const value = encoded(draft, key, encoders);
    if (JSON.stringify(value) !== JSON.stringify(encoded(saved, key, encoders))) body[key] = value;
  }
  return complete && Object.keys(body).length > 0 ? complete(body, draft) : body;
}

/** A form that edits a record: its draft, whether it differs, and a save that sends only what changed. */
export interface Patch<D> extends Action<[]> {
  draft: D;
  /** Sets one field of the draft. */
  set: <K extends keyof D>(key: K, value: D[K]) => void;
  /** Replaces the draft (to undo the edits: `replace(saved)`). */
  replace: (draft: D) => void;
  /** The draft differs from what is saved. */
  changed: boolean;
}

/**
 * The one "send only what changed" save of the dashboard. The draft starts as `saved` and starts again whenever a
 * new `saved` arrives (after a load or a save), in the render that brings it: an effect would draw one frame with the
 * old draft and drop an edit made before it ran. `send` gets the body of patchOf and returns the words of success;
 * with nothing changed nothing is sent and the save says "Nothing changed.".
 */
export function usePatch<D extends object>(options: {
  saved: D;
  // biome-ignore lint/suspicious/noConfusingVoidType: a save that has nothing to say is an async function without a return.
  send: (body: Record<string, unknown>) => Promise<string | void>;
  encoders?: Encoders<D>;
  complete?: (body: Record<string, unknown>, draft: D) => Record<string, unknown>;
}): Patch<D> {
  const { saved, send, encoders = {}, complete } = options;
  // The draft and the saved record it was started from; a draft of an older record is not this record's draft.
  const [edit, setEdit] = useState({ from: saved, draft: saved });
  const draft = edit.from === saved ? edit.draft : saved;
  const latest = useRef(saved);
  latest.current = saved;
  const save = useAction(async () => {
    const body = patchOf(draft, saved, encoders, complete);
    if (Object.keys(body).length === 0) return NOTHING_CHANGED;
    return send(body);
  });
  const set = useCallback(
    <K extends keyof D>(key: K, value: D[K]) =>
      setEdit((was) => {
        const from = latest.current;
        return { from, draft: { ...(was.from === from ? was.draft : from), [key]: value } };
      }),
    [],
  );
  const replace = useCallback((next: D) => setEdit({ from: latest.current, draft: next }), []);
  return {
    ...save,
    draft,
    set,
    replace,
    changed: Object.keys(patchOf(draft, saved, encoders)).length > 0,
  };
}
