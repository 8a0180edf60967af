import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A button for an action that cannot be undone: the first press asks, the second (or Cancel) decides. No dialog
 * window: the question stays in the page, next to what it is about, and keyboard users stay where they were.
 */
export function ConfirmButton(props: {
  label: string /** The button's accessible name when `label` alone is ambiguous (one per row). */;
  name?: string;
  confirm: string;
  onConfirm: () => unknown;
  busy?: boolean;
  danger?: boolean;
}) {
  const { label, name, confirm, onConfirm, busy, danger } = props;
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        class={`small${danger ? ' danger' : ''}`}
        onClick={() => setAsking(true)}
        disabled={busy}
        aria-label={name}
      >
        {label}
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <fieldset> inside a table cell or a row of buttons breaks their layout; the group names the question.
    <span class="confirm" role="group" aria-label={confirm}>
      <span>{confirm}</span>
      <button
        type="button"
        class={`small${danger ? ' danger' : ''}`}
        disabled={busy}
        ref={yes}
        onClick={async () => {
          await onConfirm();
          setAsking(false);
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" class="small secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
