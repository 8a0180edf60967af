import { useState } from 'preact/hooks';
import { UNSUBSCRIBE_REASON_MAX } from '../../../../shared/public/contact-rules.js';
import type { Api } from '../../api/client.js';
import { answerOf, fieldErrorOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { Field, FieldError, errorIdOf } from '../../ui/field.js';
import { ActionStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import type { Contact, Topic } from './contact-page.js';

interface Change {
  is_subscribed: boolean;
  topic_id?: number;
  unsubscribe_reason?: string;
}

/**
 * The contact's marketing mail: subscribed or not overall (with the reason and time of an unsubscription), and its
 * choice per topic (`topic_subscriptions`). Members and up change them (PATCH …/subscription); viewers read.
 */
export function SubscriptionCard(props: {
  api: Api;
  contact: Contact;
  topics: Topic[];
  mayChange: boolean;
  onChanged: (contact: Contact) => void;
}) {
  const { api, contact, topics, mayChange, onChanged } = props;
  const [reason, setReason] = useState('');
  // The topic of the last change, to show its refusal next to that topic's button.
  const [topicId, setTopicId] = useState<number | undefined>();
  const change = useAction(async (body: Change, saying: string) => {
    setTopicId(body.topic_id);
    const answer = await answerOf(
      api.PATCH('/api/v1/client/contacts/{id}/subscription', { params: { path: { id: String(contact.id) } }, body }),
      'Changing the subscription',
    );
    setReason('');
    onChanged(answer.data);
    return saying;
  });
  const { busy, failure } = change;

  const topicName = (id: number) => topics.find((topic) => topic.id === id)?.name ?? `Topic ${id}`;
  const topicError = fieldErrorOf(failure, 'topic_id');
  return (
    <section class="card" aria-labelledby="ct-subscription-title">
      <h2 id="ct-subscription-title">Subscription</h2>
      <p class={contact.is_subscribed ? 'status status-healthy' : 'status status-paused'}>
        {contact.is_subscribed ? 'Subscribed to marketing mail' : 'Unsubscribed from all marketing mail'}
      </p>
      {!contact.is_subscribed && (
        <p class="hint">
          Since <When at={contact.unsubscribed_at} />
          {contact.unsubscribe_reason ? `, reason: ${contact.unsubscribe_reason}` : ''}. Transactional mail still goes
          out unless the address bounced or complained.
        </p>
      )}
      {mayChange &&
        (contact.is_subscribed ? (
          <div class="stacked-form">
            <Field id="ct-unsubscribe-reason" label="Reason (optional)" name="unsubscribe_reason" failure={failure}>
              {(control) => (
                <input
                  {...control}
                  type="text"
                  maxLength={UNSUBSCRIBE_REASON_MAX}
                  value={reason}
                  onInput={(event) => setReason(event.currentTarget.value)}
                />
              )}
            </Field>
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void change.run(
                  { is_subscribed: false, ...(reason.trim() ? { unsubscribe_reason: reason.trim() } : {}) },
                  'Unsubscribed from all marketing mail.',
                )
              }
            >
              Unsubscribe from all marketing mail
            </button>
          </div>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => void change.run({ is_subscribed: true }, 'Subscribed again.')}
          >
            Subscribe again
          </button>
        ))}
      <h3>Topics</h3>
      {contact.topic_subscriptions.length === 0 ? (
        <p class="hint">The client has no topics (Topics page): one choice covers all marketing mail.</p>
      ) : (
        <ul class="topic-list" aria-label="Topics">
          {contact.topic_subscriptions.map((choice) => {
            const name = topicName(choice.topic_id);
            const refusalId = `ct-topic-${choice.topic_id}`;
            const refused = failure && topicId === choice.topic_id ? (topicError ?? failure.message) : undefined;
            return (
              <li key={choice.topic_id}>
                <span>
                  {name}: <strong>{choice.is_subscribed ? 'subscribed' : 'not subscribed'}</strong>
                </span>
                {mayChange && (
                  <button
                    type="button"
                    class="small"
                    disabled={busy}
                    aria-describedby={refused ? errorIdOf(refusalId) : undefined}
                    onClick={() =>
                      void change.run(
                        { is_subscribed: !choice.is_subscribed, topic_id: choice.topic_id },
                        choice.is_subscribed ? `Unsubscribed from ${name}.` : `Subscribed to ${name}.`,
                      )
                    }
                  >
                    {choice.is_subscribed ? `Unsubscribe from ${name}` : `Subscribe to ${name}`}
                  </button>
                )}
                <FieldError id={refusalId} message={refused} />
              </li>
            );
          })}
        </ul>
      )}
      {!contact.is_subscribed && contact.topic_subscriptions.length > 0 && (
        <p class="hint">Unsubscribed from all marketing mail, the contact gets none whatever its topics say.</p>
      )}
      <ActionStatus action={change} shownAt={topicId ? ['topic_id', 'unsubscribe_reason'] : ['unsubscribe_reason']} />
    </section>
  );
}
