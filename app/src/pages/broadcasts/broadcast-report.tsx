import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { ActionStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { countText } from '../segments/segment-text.js';
import type { Broadcast } from './broadcast-text.js';

/**
 * A started broadcast: how far it has come (the audience taken, sent, delivered, opened and clicked by people,
 * deferred, skipped, failed), Pause / Resume / Cancel.
 */
export function BroadcastReport(props: {
  api: Api;
  broadcast: Broadcast;
  writes: boolean;
  manages: boolean;
  onChanged: (broadcast: Broadcast, words: string) => void;
}) {
  const { api, broadcast, writes, manages, onChanged } = props;
  const path = { params: { path: { id: String(broadcast.id) } } };
  const move = useAction(async (verb: 'pause' | 'resume' | 'cancel') => {
    const what = { pause: 'Pausing', resume: 'Resuming', cancel: 'Cancelling' }[verb];
    const answer = await answerOf(
      api.POST(`/api/v1/client/broadcasts/{id}/${verb}` as '/api/v1/client/broadcasts/{id}/pause', path),
      `${what} the broadcast`,
    );
    onChanged(
      answer.data,
      {
        pause: 'Paused: nothing more goes out until you resume.',
        resume: 'Resumed: sending goes on where it stopped.',
        cancel: 'Cancelled: the recipients still waiting will not get it.',
      }[verb],
    );
  });
  const totals = broadcast.totals;
  const total = broadcast.recipients;
  const pausable = broadcast.status === 'snapshotting' || broadcast.status === 'sending';
  const cancellable = pausable || broadcast.status === 'paused' || broadcast.status === 'scheduled';
  return (
    <>
      <section class="card page-section" aria-labelledby="bc-progress-title">
        <h2 id="bc-progress-title">Progress</h2>
        {total !== null && total > 0 && (
          <div class="field">
            <label for="bc-sent-progress">Sent of the audience</label>
            <progress class="progress-bar" id="bc-sent-progress" max={total} value={Math.min(totals.sent, total)}>
              {countText(totals.sent)} of {countText(total)}
            </progress>
          </div>
        )}
        <dl class="figures" id="bc-totals">
          <dt>Audience</dt>
          <dd>{total === null ? 'being taken' : countText(total)}</dd>
          <dt>Sent</dt>
          <dd>{countText(totals.sent)}</dd>
          <dt>Delivered</dt>
          <dd>{countText(totals.delivered)}</dd>
          <dt>Opened by people</dt>
          <dd>{countText(totals.human_opens)}</dd>
          <dt>Clicked by people</dt>
          <dd>{countText(totals.human_clicks)}</dd>
          <dt>Deferred</dt>
          <dd>{countText(totals.deferred)}</dd>
          <dt>Skipped</dt>
          <dd>{countText(totals.skipped)}</dd>
          <dt>Failed</dt>
          <dd>{countText(totals.failed)}</dd>
          <dt>Bounced</dt>
          <dd>{countText(totals.bounced)}</dd>
        </dl>
        <p class="hint">
          Counted from the recipients and their e-mails, about 10 seconds behind; opens and clicks by machines (privacy
          proxies, link scanners) are left out.
        </p>
        <dl class="figures">
          {broadcast.started_at && (
            <>
              <dt>Started</dt>
              <dd>
                <When at={broadcast.started_at} />
              </dd>
            </>
          )}
          {broadcast.completed_at && (
            <>
              <dt>Completed</dt>
              <dd>
                <When at={broadcast.completed_at} />
              </dd>
            </>
          )}
        </dl>
        <div class="row-actions">
          {writes && pausable && (
            <button type="button" class="secondary" disabled={move.busy} onClick={() => void move.run('pause')}>
              Pause
            </button>
          )}
          {manages && broadcast.status === 'paused' && (
            <button type="button" disabled={move.busy} onClick={() => void move.run('resume')}>
              Resume
            </button>
          )}
        </div>
        <ActionStatus action={move} />
      </section>
      {manages && cancellable && (
        <section class="card danger-zone page-section" aria-labelledby="bc-cancel-title">
          <h2 id="bc-cancel-title">Cancel</h2>
          <p class="hint">What was sent stays sent; every recipient still waiting is cancelled. It cannot be undone.</p>
          <ConfirmButton
            label="Cancel broadcast"
            confirm={`Cancel “${broadcast.name}” for every recipient still waiting?`}
            danger
            busy={move.busy}
            onConfirm={() => move.run('cancel')}
          />
        </section>
      )}
    </>
  );
}
