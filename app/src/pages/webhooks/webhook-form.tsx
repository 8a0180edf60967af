import type { components } from '../../api/openapi.js';
import { type Failure, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError } from '../../ui/field-error.js';

export type Webhook = components['schemas']['Webhook'];
export type WebhookEventType = components['schemas']['WebhookEventType'];

/** The event types an endpoint may receive, with what each means (README, "Webhooks"). */
export const EVENT_TYPES = [
  ['email.sent', 'an e-mail went to SES'],
  ['email.delivered', 'the receiving server accepted it'],
  ['email.delivery_delayed', 'delivery is delayed'],
  ['email.bounced', 'it bounced'],
  ['email.complained', 'it was marked as spam'],
  ['email.opened', 'it was opened'],
  ['email.clicked', 'a link was clicked'],
  ['email.failed', 'it could not be sent'],
  ['contact.unsubscribed', 'a contact left all marketing mail'],
  ['contact.subscribed', 'a contact came back'],
  ['contact.topic_changed', 'a contact changed its topics'],
  ['execution.failed', 'a workflow run failed'],
  ['execution.skipped', 'a workflow run was skipped'],
] as const satisfies readonly (readonly [WebhookEventType, string])[];

// Every type of the API is listed above (a new one is a compile error here).
type Missing = Exclude<WebhookEventType, (typeof EVENT_TYPES)[number][0]>;
const _everyType: Missing extends never ? true : never = true;
void _everyType;

export interface WebhookDraft {
  url: string;
  description: string;
  /** false: every type (event_types null). */
  chosen: boolean;
  event_types: WebhookEventType[];
  humans_only: boolean;
}

export const draftOfWebhook = (webhook?: Webhook): WebhookDraft => ({
  url: webhook?.url ?? '',
  description: webhook?.description ?? '',
  chosen: Boolean(webhook?.event_types),
  event_types: webhook?.event_types ?? [],
  humans_only: webhook?.humans_only ?? false,
});

/** The body of a create or an update: `event_types` null for every type. */
export const bodyOfWebhook = (draft: WebhookDraft) => ({
  url: draft.url.trim(),
  description: draft.description,
  event_types: draft.chosen ? draft.event_types : null,
  humans_only: draft.humans_only,
});

const WEBHOOK_FIELDS = ['url', 'description', 'event_types', 'humans_only', 'enabled'] as const;

/** The endpoint's fields: URL, description, the event types (all, or chosen), humans only. Errors at their field. */
export function WebhookForm(props: {
  idPrefix: string;
  draft: WebhookDraft;
  failure: Failure | undefined;
  busy: boolean;
  submit: string;
  onChange: (draft: WebhookDraft) => void;
  onSubmit: () => void;
  onCancel?: () => void;
}) {
  const { idPrefix: p, draft, failure, busy, submit, onChange, onSubmit, onCancel } = props;
  const urlError = fieldErrorOf(failure, 'url');
  const descriptionError = fieldErrorOf(failure, 'description');
  const typesError = fieldErrorOf(failure, 'event_types');
  const invalid = (id: string, error: string | undefined, hint?: string) => ({
    ...(error ? { 'aria-invalid': true as const } : {}),
    ...(error || hint
      ? { 'aria-describedby': [error ? `${id}-error` : '', hint ?? ''].filter(Boolean).join(' ') }
      : {}),
  });
  const toggle = (type: WebhookEventType, on: boolean) =>
    onChange({
      ...draft,
      event_types: on ? [...draft.event_types, type] : draft.event_types.filter((t) => t !== type),
    });
  return (
    <form
      class="st-webhook-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div class="st-field">
        <label for={`${p}-url`}>Endpoint URL</label>
        <input
          id={`${p}-url`}
          type="url"
          value={draft.url}
          autocomplete="off"
          spellcheck={false}
          placeholder="https://example.com/webhooks/lifecycle"
          {...invalid(`${p}-url`, urlError, `${p}-url-hint`)}
          onInput={(event) => onChange({ ...draft, url: event.currentTarget.value })}
        />
        <FieldError id={`${p}-url-error`} message={urlError} />
        <p id={`${p}-url-hint`} class="hint">
          Where each event is POSTed, signed (Standard Webhooks). On AWS it must be https and public.
        </p>
      </div>
      <div class="st-field">
        <label for={`${p}-description`}>Description</label>
        <input
          id={`${p}-description`}
          type="text"
          value={draft.description}
          maxLength={500}
          autocomplete="off"
          {...invalid(`${p}-description`, descriptionError)}
          onInput={(event) => onChange({ ...draft, description: event.currentTarget.value })}
        />
        <FieldError id={`${p}-description-error`} message={descriptionError} />
      </div>
      <fieldset class="st-types" {...invalid(`${p}-types`, typesError)}>
        <legend>Event types</legend>
        <div class="st-check">
          <input
            id={`${p}-all`}
            type="radio"
            name={`${p}-which`}
            checked={!draft.chosen}
            onChange={() => onChange({ ...draft, chosen: false })}
          />
          <label for={`${p}-all`}>Every type, new ones included</label>
        </div>
        <div class="st-check">
          <input
            id={`${p}-some`}
            type="radio"
            name={`${p}-which`}
            checked={draft.chosen}
            onChange={() => onChange({ ...draft, chosen: true })}
          />
          <label for={`${p}-some`}>Only these:</label>
        </div>
        {draft.chosen && (
          <ul class="st-type-list">
            {EVENT_TYPES.map(([type, meaning]) => (
              <li key={type} class="st-check">
                <input
                  id={`${p}-type-${type}`}
                  type="checkbox"
                  checked={draft.event_types.includes(type)}
                  onChange={(event) => toggle(type, event.currentTarget.checked)}
                />
                <label for={`${p}-type-${type}`}>
                  <code>{type}</code> <span class="hint">{meaning}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        <FieldError id={`${p}-types-error`} message={typesError} />
      </fieldset>
      <div class="st-check">
        <input
          id={`${p}-humans`}
          type="checkbox"
          checked={draft.humans_only}
          onChange={(event) => onChange({ ...draft, humans_only: event.currentTarget.checked })}
          aria-describedby={`${p}-humans-hint`}
        />
        <label for={`${p}-humans`}>Humans only</label>
        <p id={`${p}-humans-hint`} class="hint">
          Opens and clicks by machines (mail scanners, Apple Mail Privacy Protection) are not sent here.
        </p>
      </div>
      <FailureAlert failure={failure} shownAt={WEBHOOK_FIELDS} />
      <div class="st-actions">
        <button type="submit" disabled={busy}>
          {submit}
        </button>
        {onCancel && (
          <button type="button" class="st-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
