import { useState } from 'preact/hooks';

/** What the button says once the browser refused the clipboard and the value is selected instead. */
export const COPY_REFUSED = 'Copying is not allowed here: the value is selected, copy it with your keyboard.';

/**
 * A Copy button for a value shown next to it (a secret, a DNS record's value), and a polite status saying what it did.
 * Where the browser has no clipboard for the page (an insecure origin, a refused permission), the element showing the
 * value (`target`, an id) is selected instead, for the person to copy with the keyboard.
 */
export function CopyButton(props: {
  value: string;
  /** The id of the element showing the value: an input is selected, any other element's text is. */
  target: string;
  /** The button's accessible name when "Copy" alone is ambiguous (one per row). */
  name?: string;
  label?: string;
  /** A small button, as in a table's row. */
  small?: boolean;
}) {
  const { value, target, name, label = 'Copy', small } = props;
  const [said, setSaid] = useState('');

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied.');
    } catch {
      selectShown(target);
      setSaid(COPY_REFUSED);
    }
  }

  return (
    <span class="copy-button">
      <button type="button" class={small ? 'small' : undefined} onClick={copy} aria-label={name}>
        {label}
      </button>
      <span role="status" class="success">
        {said}
      </span>
    </span>
  );
}

/** Selects what the element `id` shows: an input's value, or the element's text. */
function selectShown(id: string) {
  const shown = document.getElementById(id);
  if (!shown) return;
  if (shown instanceof HTMLInputElement || shown instanceof HTMLTextAreaElement) {
    shown.select();
    return;
  }
  window.getSelection()?.selectAllChildren(shown);
}
