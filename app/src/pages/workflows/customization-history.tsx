import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { type AuditEntry, eventsText, SEND_TIME_MODES, type Topic } from './workflow-text.js';

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

/**
 * GET /client/workflows/{id}/customization/audit, newest first and paged: who changed what, before → after. The page
 * draws it again (from its first page) when the customization changed.
 */
export function CustomizationHistory({
  api,
  workflowId,
  topics,
}: {
  api: Api;
  workflowId: number;
  topics: Topic[] | undefined;
}) {
  const [page, setPage] = useState(1);
  // Another page of the history keeps this one on screen until it is read.
  const history = useLoad(
    async (signal) => {
      const read = await answerOf(
        api.GET('/api/v1/client/workflows/{workflow_id}/customization/audit', {
          params: { path: { workflow_id: String(workflowId) }, query: { page, per_page: PER_PAGE } },
          signal,
        }),
        'Reading the history',
      );
      return { entries: read.data.entries, page: read.meta.page, pages: read.meta.total_pages, total: read.meta.total };
    },
    [api, workflowId, page],
    { keep: true },
  );
  // The users name who changed what; without them the user's id is shown.
  const users = useLoad(
    async (signal) => {
      const { data } = await api.GET('/api/v1/client/users', { signal });
      return new Map((data?.data.users ?? []).map((user) => [user.id, `${user.name} (${user.email})`]));
    },
    [api],
  );
  const answer = history.data;

  return (
    <section class="page-section" aria-labelledby="wf-audit-title">
      <h2 id="wf-audit-title">History of the customization</h2>
      <LoadStatus loaded={history} />
      {answer && answer.total === 0 && <p class="hint">No change yet: the workflow runs with its defaults.</p>}
      {answer && answer.entries.length > 0 && (
        <ol class="history" id="wf-audit">
          {answer.entries.map((entry) => (
            <li key={entry.id} class="card">
              <p class="history-head">
                <When at={entry.at} /> · {whoText(entry, users.data ?? new Map())}
              </p>
              <ul>
                {changesOf(entry).map((key) => (
                  <li key={key}>
                    {FIELD_NAMES[key]}: <span class="old-value">{valueText(key, entry.before[key], topics)}</span> →{' '}
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
        <nav class="pager" aria-label="History pages">
          <button
            type="button"
            class="small secondary"
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
            class="small secondary"
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
