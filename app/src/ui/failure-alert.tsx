import type { Failure } from '../data/answer.js';

/** A failure's message and every error item no field of the page shows (`shownAt`: the keys the fields show). */
export function FailureAlert({ failure, shownAt = [] }: { failure: Failure | undefined; shownAt?: readonly string[] }) {
  if (!failure) return null;
  const rest = failure.errors.filter((item) => !item.key || !shownAt.includes(item.key));
  return (
    <div role="alert" class="error ct-alert">
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
