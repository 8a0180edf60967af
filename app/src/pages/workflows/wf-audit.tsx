import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { answerOf, type Failure, failureOfError } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { When } from '../../ui/when.js';
import { type AuditEntry, eventsText, SEND_TIME_MODES, type Topic } from './wf-text.js';

type Overrides = AuditEntry['before'];

const PER_PAGE = 10;

/** The customization's fields, named as the form names them. */
export const FIELD_NAMES: Record<keyof Overrides, string> = {
  template_id: 'Template',
  delay_minutes: 'Delay (minutes)',
  priority_score: 'Priority',
  send_time_mode: 'Send time',
  preferred_send_hour: 'Preferred hour',
  preferred_send_minute: 'Preferred minute',
  exit_events: 'Exit events',
  conversion_window_days: 'Conversion window (days)',
  topic_id: 'Topic',
};

/** An override's value as people read it; null is the workflow's default. */
export function valueText(key: keyof Overrides, value: unknown, topics: readonly Topic[] | undefined): string {
  if (value === null || value === undefined) return 'default';
  if (key === 'exit_events') return eventsText(value as string[]);
  if (key === 'send_time_mode')
    return `${String(value)} · ${SEND_TIME_MODES.find((mode) => mode.mode === value)?.name ?? ''}`;
  if (key === 'template_id') return `#${String(value)}`;
  if (key === 'topic_id') return topics?.find((topic) => topic.id === value)?.name ?? `#${String(value)}`;
  return String(value);
}

/** The fields an entry changed. */
export const changesOf = (entry: AuditEntry): (keyof Overrides)[] =>
  (Object.keys(FIELD_NAMES) as (keyof Overrides)[]).filter(
    (key) => JSON.stringify(entry.before[key] ?? null) !== JSON.stringify(entry.after[key] ?? null),
  );

function whoText(entry: AuditEntry, users: Map<number, string>): string {
  if (entry.auth_method === 'api_key') return `API key #${entry.key_id ?? '?'}`;
  if (entry.auth_method === 'jwt') return 'A JWT';
  return entry.user_id !== undefined ? (users.get(entry.user_id) ?? `User #${entry.user_id}`) : 'A dashboard user';
}

/** GET /client/workflows/{id}/customization/audit, newest first and paged: who changed what, before → after. */
export function AuditLog({
  api,
  workflowId,
  topics,
  loads,
}: {
  api: Api;
  workflowId: number;
  topics: Topic[] | undefined;
  loads: number;
}) {
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<
    { entries: AuditEntry[]; page: number; pages: number; total: number } | undefined
  >();
  const [failure, setFailure] = useState<Failure | undefined>();
  const [users, setUsers] = useState<Map<number, string>>(new Map());

  // A change made here is the newest: back to the first page.
  useEffect(() => setPage(1), [loads]);

  useEffect(() => {
    let current = true;
    setFailure(undefined);
    answerOf(
      api.GET('/api/v1/client/workflows/{workflow_id}/customization/audit', {
        params: { path: { workflow_id: String(workflowId) }, query: { page, per_page: PER_PAGE } },
      }),
      'Reading the history',
    ).then(
      (read) =>
        current &&
        setAnswer({
          entries: read.data.entries,
          page: read.meta.page,
          pages: read.meta.total_pages,
          total: read.meta.total,
        }),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, workflowId, page, loads]);

  useEffect(() => {
    let current = true;
    // The users name who changed what; without them the user's id is shown.
    api.GET('/api/v1/client/users').then(
      ({ data }) =>
        current && data && setUsers(new Map(data.data.users.map((user) => [user.id, `${user.name} (${user.email})`]))),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api]);

  return (
    <section class="wf-section" aria-labelledby="wf-audit-title">
      <h2 id="wf-audit-title">History of the customization</h2>
      <FailureAlert failure={failure} />
      {!answer && !failure && <p aria-busy="true">Loading…</p>}
      {answer && answer.total === 0 && <p class="hint">No change yet: the workflow runs with its defaults.</p>}
      {answer && answer.entries.length > 0 && (
        <ol class="wf-audit" id="wf-audit">
          {answer.entries.map((entry) => (
            <li key={entry.id} class="card">
              <p class="wf-audit-head">
                <When at={entry.at} /> · {whoText(entry, users)}
              </p>
              <ul>
                {changesOf(entry).map((key) => (
                  <li key={key}>
                    {FIELD_NAMES[key]}: <span class="wf-before">{valueText(key, entry.before[key], topics)}</span> →{' '}
                    <strong>{valueText(key, entry.after[key], topics)}</strong>
                  </li>
                ))}
                {changesOf(entry).length === 0 && <li>Saved with no change.</li>}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {answer && answer.pages > 1 && (
        <nav class="st-pages" aria-label="History pages">
          <button
            type="button"
            class="st-small st-secondary"
            disabled={answer.page <= 1}
            onClick={() => setPage(answer.page - 1)}
          >
            Newer
          </button>
          <span>
            Page {answer.page} of {answer.pages}
          </span>
          <button
            type="button"
            class="st-small st-secondary"
            disabled={answer.page >= answer.pages}
            onClick={() => setPage(answer.page + 1)}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  );
}
