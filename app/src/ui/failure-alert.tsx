import type { Failure } from '../data/answer.js';
import { useFormState } from './form.js';

/**
 * A failure's message and every error item no field showed. In a Form it reads the form's failure and the keys its
 * fields show; outside one (a load, a row's action) it shows `failure` whole, but for the keys in `shownAt`.
 */
export function FailureAlert(props: { failure?: Failure | undefined; shownAt?: readonly string[] }) {
  const form = useFormState();
  const failure = props.failure ?? form?.failure;
  if (!failure) return null;
  const shown = new Set([...(props.shownAt ?? []), ...(form ? form.shown : [])]);
  const rest = failure.errors.filter((item) => !item.key || !shown.has(item.key));
  return (
    <div role="alert" class="error alert">
      <p>{failure.message}</p>
      {rest.length > 0 && (
        <ul>
          {rest.map((item, at) => (
            <li key={at}>
              {item.key ? <code>{item.key}</code> : null} {item.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
