import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { navigate } from '../../router.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Field } from '../../ui/field.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { TextField } from '../../ui/inputs.js';
import { ActionStatus } from '../../ui/status.js';
import { countText } from '../segments/segment-text.js';
import type { Broadcast } from './broadcast-text.js';

/** The resend's delay after the broadcast's start, in hours (the API's bounds, stated in its document). */
export const RESEND_HOURS = { min: 1, max: 168, suggested: 48 };
/** Where a failed recipient may be sent again: the broadcast has started. */
const RETRYABLE: readonly Broadcast['status'][] = ['snapshotting', 'sending', 'paused', 'sent'];

/**
 * What follows a started broadcast, for owners and admins: **Resend to non-openers** (a new broadcast with another
 * subject, to the recipients no person opened it for, `after_hours` after this one's start; one a broadcast, then a
 * link to it) and **Retry failed** (each failed recipient sent once more). A resend links back to its broadcast.
 */
export function BroadcastFollowUps(props: {
  api: Api;
  broadcast: Broadcast;
  manages: boolean;
  onChanged: (broadcast: Broadcast, words: string) => void;
}) {
  const { api, broadcast, manages, onChanged } = props;
  const path = { params: { path: { id: String(broadcast.id) } } };
  const [subject, setSubject] = useState('');
  const [hours, setHours] = useState(String(RESEND_HOURS.suggested));
  const resend = useAction(async () => {
    const answer = await answerOf(
      api.POST('/api/v1/client/broadcasts/{id}/resend', { ...path, body: { subject, after_hours: Number(hours) } }),
      'Making the resend',
    );
    navigate('broadcast', { id: String(answer.data.id) });
  });
  const retry = useAction(async () => {
    const answer = await answerOf(api.POST('/api/v1/client/broadcasts/{id}/retry-failed', path), 'Retrying');
    const n = answer.data.retrying;
    const again = await answerOf(api.GET('/api/v1/client/broadcasts/{id}', path), 'Reading the broadcast');
    onChanged(
      again.data,
      n === 0
        ? 'Nothing to retry: every failed recipient was retried already.'
        : `Retrying ${countText(n)} failed ${n === 1 ? 'recipient' : 'recipients'}: each is sent once more.`,
    );
  });
  const started = broadcast.started_at !== null;
  const canResend = manages && broadcast.kind === 'broadcast' && started && broadcast.resend_id === null;
  const canRetry = manages && broadcast.totals.failed > 0 && RETRYABLE.includes(broadcast.status);
  const links = broadcast.parent_id !== null || broadcast.resend_id !== null;
  if (!canResend && !canRetry && !links) return null;
  return (
    <section class="card page-section" aria-labelledby="bc-follow-title">
      <h2 id="bc-follow-title">Follow-ups</h2>
      {broadcast.parent_id !== null && (
        <p>
          A resend to the non-openers of{' '}
          <Link page="broadcast" params={{ id: String(broadcast.parent_id) }}>
            broadcast #{broadcast.parent_id}
          </Link>
          .
        </p>
      )}
      {broadcast.resend_id !== null && (
        <p>
          Resent to its non-openers:{' '}
          <Link page="broadcast" params={{ id: String(broadcast.resend_id) }}>
            broadcast #{broadcast.resend_id}
          </Link>
          .
        </p>
      )}
      {canResend && (
        <Form onSubmit={resend.run} failure={resend.failure} aria-labelledby="bc-resend-title">
          <h3 id="bc-resend-title">Resend to non-openers</h3>
          <p class="hint">
            A new broadcast with another subject, to the recipients no person has opened this one for when it starts
            (opens by machines — privacy proxies, link scanners — do not count); one resend a broadcast.
          </p>
          <TextField
            id="bc-resend-subject"
            name="subject"
            label="Subject"
            maxLength={200}
            value={subject}
            onValue={setSubject}
            hint="1 to 200 characters; the template’s variables apply."
          />
          <Field
            id="bc-resend-hours"
            name="after_hours"
            label="Hours after this broadcast’s start"
            hint={`${RESEND_HOURS.min} to ${RESEND_HOURS.max}; at once when that time has passed.`}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={RESEND_HOURS.min}
                max={RESEND_HOURS.max}
                step={1}
                value={hours}
                onInput={(event) => setHours(event.currentTarget.value)}
              />
            )}
          </Field>
          <FailureAlert />
          <FormActions submit="Make the resend" busy={resend.busy} busyLabel="Making…" />
        </Form>
      )}
      {canRetry && (
        <div>
          <h3 id="bc-retry-title">Failed recipients</h3>
          <p class="hint">
            {countText(broadcast.totals.failed)} failed. Retry sends each once more at the broadcast’s pace; a recipient
            already retried is not sent again.
          </p>
          <ConfirmButton
            label="Retry failed"
            confirm={`Send “${broadcast.name}” once more to its ${countText(broadcast.totals.failed)} failed recipients?`}
            busy={retry.busy}
            onConfirm={() => retry.run()}
          />
          <ActionStatus action={retry} />
        </div>
      )}
    </section>
  );
}
