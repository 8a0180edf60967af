import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Field } from '../../ui/field.js';
import { Form } from '../../ui/form.js';
import type { Contact } from './contact-page.js';

export type Erasure = components['schemas']['ContactErasure'];

/** Whether what was typed names the contact: its address, ignoring case and surrounding spaces (the API lower-cases it). */
export const confirms = (typed: string, email: string): boolean => typed.trim().toLowerCase() === email.toLowerCase();

/**
 * Erasure (DELETE /client/contacts/{id}, GDPR Art. 17), behind a typed confirmation: the button works only once the
 * contact's e-mail address is typed. It cannot be undone.
 */
export function EraseCard({
  api,
  contact,
  onErased,
}: {
  api: Api;
  contact: Contact;
  onErased: (erasure: Erasure) => void;
}) {
  const [typed, setTyped] = useState('');
  const ready = confirms(typed, contact.email);
  const erase = useAction(async () => {
    const answer = await answerOf(
      api.DELETE('/api/v1/client/contacts/{id}', { params: { path: { id: String(contact.id) } } }),
      'Erasing the contact',
    );
    onErased(answer.data);
  });

  return (
    <section class="card danger-zone" aria-labelledby="ct-erase-title">
      <h2 id="ct-erase-title">Erase this contact</h2>
      <p id="ct-erase-what">
        Removes the contact and its custom fields, cancels its queued workflow runs, and strips every personal datum
        from its events and sent e-mails (their ids and statuses stay, for your figures). An address that bounced or
        complained is kept as a hash so it cannot be added again. This cannot be undone.
      </p>
      <Form onSubmit={() => ready && !erase.busy && erase.run()} failure={erase.failure}>
        <Field
          id="ct-erase-confirm"
          name="id"
          describedBy={['ct-erase-what']}
          label={
            <>
              Type <strong class="wrap-anywhere">{contact.email}</strong> to confirm
            </>
          }
        >
          {(control) => (
            <input
              {...control}
              type="text"
              autocomplete="off"
              spellcheck={false}
              value={typed}
              onInput={(event) => setTyped(event.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="danger" disabled={!ready || erase.busy}>
          Erase this contact
        </button>
        <FailureAlert />
      </Form>
    </section>
  );
}

/** What an erasure removed, as the API counts it. */
export function ErasureReport({ erasure }: { erasure: Erasure }) {
  if (erasure.already_erased) {
    return <p role="status">This contact had already been erased: nothing was left to remove.</p>;
  }
  return (
    <div role="status">
      <p>The contact is erased{erasure.erased_at ? ` (${erasure.erased_at})` : ''}. What was removed:</p>
      <dl class="figures">
        <dt>Contact records</dt>
        <dd>{erasure.contact}</dd>
        <dt>Events stripped of personal data</dt>
        <dd>{erasure.events}</dd>
        <dt>Workflow runs stripped</dt>
        <dd>{erasure.executions}</dd>
        <dt>Queued runs cancelled</dt>
        <dd>{erasure.executions_cancelled}</dd>
        <dt>Sent e-mails stripped</dt>
        <dd>{erasure.sent_emails}</dd>
        <dt>Status logs stripped</dt>
        <dd>{erasure.logs}</dd>
      </dl>
      {erasure.suppression_marker && (
        <p>The address bounced or complained: a hash of it is kept, so it cannot be added again.</p>
      )}
    </div>
  );
}
