import { useState } from 'preact/hooks';

/**
 * A secret the API shows once (a new API key, a webhook's signing secret): the value, a copy button, and the warning
 * that it is not shown again. The page drops it as soon as the person leaves (it lives in the page's state only).
 */
export function SecretOnce(props: { id: string; title: string; value: string; onDone: () => void }) {
  const { id, title, value, onDone } = props;
  const [copied, setCopied] = useState<string | undefined>();

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      // No clipboard (an insecure origin, a refused permission): select the text for the person to copy.
      const field = document.getElementById(`${id}-value`) as HTMLInputElement | null;
      field?.select();
      setCopied('Copying is not allowed here: the value is selected, copy it with your keyboard.');
    }
  }

  return (
    <section class="card secret" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p class="secret-warning" id={`${id}-warning`}>
        Store it now: it is shown this once and never again. Leaving this page forgets it.
      </p>
      <label for={`${id}-value`}>The value</label>
      <div class="secret-row">
        <input
          id={`${id}-value`}
          class="secret-value"
          type="text"
          readOnly
          value={value}
          aria-describedby={`${id}-warning`}
          spellcheck={false}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" class="success">
        {copied ?? ''}
      </p>
      <button type="button" class="link" onClick={onDone}>
        I stored it, hide it
      </button>
    </section>
  );
}
