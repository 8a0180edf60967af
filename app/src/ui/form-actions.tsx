import type { ComponentChildren } from 'preact';

/**
 * A form's row of buttons: submit (disabled while the action runs, `busyLabel` then if given), Cancel when the form
 * can be left, and what follows them (the action's status, a note about unsaved changes).
 */
export function FormActions(props: {
  submit: string;
  busy: boolean;
  busyLabel?: string;
  onCancel?: (() => void) | undefined;
  children?: ComponentChildren;
}) {
  const { submit, busy, busyLabel, onCancel, children } = props;
  return (
    <div class="form-actions">
      <button type="submit" disabled={busy}>
        {busy && busyLabel ? busyLabel : submit}
      </button>
      {onCancel && (
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
      {children}
    </div>
  );
}
