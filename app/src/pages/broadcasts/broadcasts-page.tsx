import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { DataTable } from '../../ui/data-table.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { countText } from '../segments/segment-text.js';
import { useAudienceNames } from './audience-names.js';
import { NewBroadcastForm } from './broadcast-form.js';
import { audienceText, type Broadcast, STATUS_TEXT } from './broadcast-text.js';

/** A broadcast's status as a coloured word. */
export const BroadcastStatusText = ({ broadcast }: { broadcast: Pick<Broadcast, 'status'> }) => (
  <span class={`outcome outcome-${broadcast.status}`}>{STATUS_TEXT[broadcast.status]}</span>
);

/** Sent of the audience: "120 / 400" once started ("…" while the audience is still being taken), "—" before. */
export function sentText(broadcast: Broadcast): string {
  if (broadcast.status === 'draft' || broadcast.status === 'scheduled') return '—';
  return `${countText(broadcast.totals.sent)} / ${broadcast.recipients === null ? '…' : countText(broadcast.recipients)}`;
}

/**
 * Broadcasts: one e-mail to a segment, a topic's subscribers or every subscribed contact, newest first, with its
 * status and how many it has sent; roles with `content` start a new one by its name, which opens on its page.
 */
export function BroadcastsPage({ api, signedIn }: PageProps) {
  const list = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/broadcasts', { signal }), 'Reading the broadcasts')).data.broadcasts,
    [api],
  );
  const names = useAudienceNames(api);
  const editable = can(signedIn, 'content');
  return (
    <section aria-labelledby="bc-title">
      <PageHead id="bc-title" title="Broadcasts" />
      <p class="hint">
        A broadcast sends one e-mail once to each contact of an audience (a segment, a topic’s subscribers or every
        subscribed contact), now, at a time, or at an hour of each contact’s own day, paced so lifecycle mail keeps
        going.
      </p>
      <LoadStatus loaded={list} />
      {list.data && (
        <>
          {editable && <NewBroadcastForm api={api} />}
          <DataTable
            id="bc-table"
            label="Broadcasts table"
            caption="Broadcasts, newest first"
            rows={list.data}
            empty={
              <div class="card empty">
                <p>
                  No broadcast yet.
                  {editable ? ' Write one above: it is created as a draft, to schedule from its page.' : ''}
                </p>
              </div>
            }
            columns={[
              {
                head: 'Broadcast',
                rowHeader: true,
                class: 'wrap-anywhere',
                cell: (broadcast) => (
                  <>
                    <Link page="broadcast" params={{ id: String(broadcast.id) }}>
                      {broadcast.name}
                    </Link>
                    <small>#{broadcast.id}</small>
                  </>
                ),
              },
              { head: 'Status', cell: (broadcast) => <BroadcastStatusText broadcast={broadcast} /> },
              { head: 'Audience', cell: (broadcast) => audienceText(broadcast.definition?.audience, names) },
              { head: 'Sent / total', cell: sentText },
              {
                head: 'Starts',
                cell: (broadcast) =>
                  broadcast.started_at ? (
                    <When at={broadcast.started_at} />
                  ) : broadcast.scheduled_at ? (
                    <When at={broadcast.scheduled_at} />
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
