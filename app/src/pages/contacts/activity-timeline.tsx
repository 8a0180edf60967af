import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { When } from '../../ui/when.js';
import { StatusLogs } from '../sent-email/status-logs.js';

export type ActivityItem = components['schemas']['ActivityItem'];
type Topic = components['schemas']['Topic'];

/** Items per page of GET /client/contacts/{id}/activity. */
export const ACTIVITY_PAGE = 20;

/**
 * The contact's activity (GET /client/contacts/{id}/activity), newest first: events, workflow runs with their status
 * and reason, sent e-mails with their status logs, and subscription and topic choices. Older pages are added below.
 * `changes` counts the page's changes to the contact (a subscription): each reads the timeline again from the top.
 */
export function ActivityTimeline({
  api,
  contactId,
  topics,
  changes,
}: {
  api: Api;
  contactId: string;
  topics: Topic[];
  changes: number;
}) {
  const read = async (cursor: string | null, signal?: AbortSignal) => {
    const query = cursor ? { limit: ACTIVITY_PAGE, cursor } : { limit: ACTIVITY_PAGE };
    const answer = await answerOf(
      api.GET('/api/v1/client/contacts/{id}/activity', { params: { path: { id: contactId }, query }, signal }),
      'Reading the activity',
    );
    return { items: answer.data.items, next: answer.data.next_cursor };
  };
  // The items shown stay while the timeline is read again after a change.
  const timeline = useLoad((signal) => read(null, signal), [api, contactId, changes], { keep: true });
  const older = useAction(async () => {
    const next = timeline.data?.next;
    if (!next) return;
    const page = await read(next);
    // Added only to the list it continues (a reread from the top since then has its own cursor).
    timeline.update((was) => (was.next === next ? { items: [...was.items, ...page.items], next: page.next } : was));
  });
  const items = timeline.data?.items ?? [];
  const next = timeline.data?.next ?? null;
  const loading = timeline.loading || older.busy;
  const failure = timeline.failure ?? older.failure;

  const topicName = (id: number) => topics.find((topic) => topic.id === id)?.name ?? `Topic ${id}`;
  return (
    <section class="page-section" aria-labelledby="ct-activity-title" aria-busy={loading ? 'true' : undefined}>
      <h2 id="ct-activity-title">Activity</h2>
      {items.length === 0 && !loading && !failure && (
        <p class="hint">Nothing yet: no event, workflow run or e-mail for this contact.</p>
      )}
      {items.length > 0 && (
        <ol class="timeline" aria-label="Activity, newest first">
          {items.map((item) => (
            <li key={keyOf(item)} class={`timeline-item timeline-${item.kind}`}>
              <ActivityEntry item={item} topicName={topicName} />
            </li>
          ))}
        </ol>
      )}
      <FailureAlert failure={failure} />
      {loading && <p class="hint">Loading the activity…</p>}
      {next && !loading && (
        <button type="button" class="load-more" onClick={() => void older.run()}>
          Show older activity
        </button>
      )}
    </section>
  );
}

const keyOf = (item: ActivityItem): string => {
  if (item.kind === 'subscription') return `subscription-${item.at}`;
  if (item.kind === 'topic') return `topic-${item.topic_id}-${item.at}`;
  return `${item.kind}-${item.id}`;
};

function ActivityEntry({ item, topicName }: { item: ActivityItem; topicName: (id: number) => string }) {
  const at = <When at={item.at} />;
  switch (item.kind) {
    case 'event': {
      const facts = [
        item.action,
        item.feature,
        item.plan,
        item.source,
        item.status,
        item.amount === null ? null : String(item.amount),
      ].filter(Boolean);
      return (
        <>
          {at} <strong>Event {item.type}</strong>
          {facts.length > 0 && <> ({facts.join(', ')})</>}
          {item.process_error ? <span class="error"> — not processed: {item.process_error}</span> : null}
          {item.execution_ids.length > 0 && (
            <> — started workflow run {item.execution_ids.map((id) => `#${id}`).join(', ')}</>
          )}
        </>
      );
    }
    case 'execution':
      return (
        <>
          {at} <strong>Workflow run #{item.id}</strong> of {item.workflow_name ?? `workflow ${item.workflow_id}`}:{' '}
          <span class={`outcome outcome-${item.status_text}`}>{item.status_text}</span>
          {item.reason && <> — {item.reason}</>}
          {item.status === 4 && (
            <>
              {' '}
              (
              <Link page="executions" params={{ status: '4', workflow_id: String(item.workflow_id) }}>
                failed runs of this workflow
              </Link>
              )
            </>
          )}
          {item.attempt > 1 && <> (attempt {item.attempt})</>}
          {item.retried_from !== null && <> (retries #{item.retried_from})</>}
          {item.is_test && <> (test)</>}
          {item.status === 1 && (
            <>
              {' '}
              — scheduled for <When at={item.scheduled_for} />
            </>
          )}
        </>
      );
    case 'sent_email':
      return (
        <>
          {at} <strong>E-mail</strong>{' '}
          <Link page="sent-email" params={{ id: item.id }}>
            {item.subject || '(subject erased)'}
          </Link>{' '}
          ({item.email_template_name}, {item.workflow_name ?? `workflow ${item.workflow_id}`}):{' '}
          <span class={`outcome outcome-${item.status_text}`}>{item.status_text.replace('_', ' ')}</span>
          <StatusLogs logs={item.logs} label={`Status of "${item.subject}"`} />
        </>
      );
    case 'subscription':
      return (
        <>
          {at} <strong>Unsubscribed from all marketing mail</strong>
          {item.reason && <> ({item.reason})</>}
        </>
      );
    case 'topic':
      return (
        <>
          {at}{' '}
          <strong>
            {item.is_subscribed ? 'Joined' : 'Left'} the topic {topicName(item.topic_id)}
          </strong>{' '}
          ({item.via.replace('_', ' ')})
        </>
      );
  }
}
