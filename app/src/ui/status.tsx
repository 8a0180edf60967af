import type { Action } from '../data/use-action.js';
import type { Loaded } from '../data/use-load.js';
import { FailureAlert } from './failure-alert.js';

/** What an action said when it succeeded, announced politely (empty: nothing shown). */
export function Done({ text }: { text: string }) {
  return (
    <p role="status" class="success">
      {text}
    </p>
  );
}

/**
 * What an action outside a form last came to: why it failed (but the items a field shows, `shownAt`), or the words it
 * said when it succeeded.
 */
export function ActionStatus(props: { action: Pick<Action<never>, 'failure' | 'done'>; shownAt?: readonly string[] }) {
  const { action, shownAt } = props;
  return (
    <>
      <FailureAlert failure={action.failure} shownAt={shownAt} />
      <Done text={action.done} />
    </>
  );
}

/** A load's state while it has no data: "Loading…", or why it failed. With data it shows its failure only (a reload's). */
export function LoadStatus(props: {
  loaded: Pick<Loaded<unknown>, 'data' | 'failure' | 'loading'>;
  /** The error keys a form of the page shows at its fields (a list's filters). */
  shownAt?: readonly string[];
}) {
  const { loaded, shownAt } = props;
  if (loaded.failure) return <FailureAlert failure={loaded.failure} shownAt={shownAt} />;
  if (loaded.data === undefined) return <p aria-busy="true">Loading…</p>;
  return null;
}
