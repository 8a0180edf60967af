import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError } from '../../ui/field-error.js';
import type { Contact } from './contact-page.js';

export type Erasure = components['schemas']['ContactErasure'];

/** Whether what was typed names the contact: its address, ignoring case and surrounding spaces (the API lower-cases it). */
export const confirms = (typed: string, email: string): boolean => typed.trim().toLowerCase() === email.toLowerCase();

/**
 * Erasure (DELETE /client/contacts/{id}, GDPR Art. 17), behind a typed confirmation: the button works only once the
 * contact's e-mail address is typed. It cannot be undone.
 */
export function EraseCard({ api, contact, onErased }: { api: Api; contact: Contact; onErased: (erasure: Erasure) => void }) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | undefined>();
  const ready = confirms(typed, contact.email);

  async function erase() {
    setBusy(true);
    setFailure(undefined);
    try {
      const answer = await answerOf(api.DELETE('/api/v1/client/contacts/{id}', { params: { path: { id: String(contact.id) } } }), 'Erasing the contact');
      onErased(answer.data);
    } catch (error) {
      setFailure(failureOfError(error));
      setBusy(false);
    }
  }

  const idError = fieldErrorOf(failure, 'id');
  return (
    <section class="card ct-danger" aria-labelledby="ct-erase-title">
      <h2 id="ct-erase-title">Erase this contact</h2>
      <p id="ct-erase-what">
        Removes the contact and its custom fields, cancels its queued workflow runs, and strips every personal datum from its
        events and sent e-mails (their ids and statuses stay, for your figures). An address that bounced or complained is kept
        as a hash so it cannot be added again. This cannot be undone.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready && !busy) void erase();
        }}
      >
        <label for="ct-erase-confirm">
          Type <strong class="ct-break">{contact.email}</strong> to confirm
        </label>
        <input
          id="ct-erase-confirm"
          type="text"
          autocomplete="off"
          spellcheck={false}
          value={typed}
          onInput={(event) => setTyped(event.currentTarget.value)}
          aria-describedby={idError ? 'ct-erase-what ct-erase-error' : 'ct-erase-what'}
          aria-invalid={idError ? true : undefined}
        />
        <FieldError id="ct-erase-error" message={idError} />
        <button type="submit" class="ct-danger-button" disabled={!ready || busy}>
          Erase this contact
        </button>
      </form>
      <FailureAlert failure={failure} shownAt={['id']} />
    </section>
  );
}

/** What an erasure removed, as the API counts it. */
export function ErasureReport({ erasure }: { erasure: Erasure }) {
  if (erasure.already_erased) {
    return (
      <p role="status">
        This contact had already been erased: nothing was left to remove.
      </p>
    );
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
