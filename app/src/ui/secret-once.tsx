import { CopyButton } from './copy-button.js';

/**
 * A secret the API shows once (a new API key, a webhook's signing secret): the value, a copy button, and the warning
 * that it is not shown again. The page drops it as soon as the person leaves (it lives in the page's state only).
 */
export function SecretOnce(props: { id: string; title: string; value: string; onDone: () => void }) {
  const { id, title, value, onDone } = props;
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
        <CopyButton value={value} target={`${id}-value`} />
      </div>
      <button type="button" class="link" onClick={onDone}>
        I stored it, hide it
      </button>
    </section>
  );
}
