import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_DISABLE_AFTER_MS,
  waitText,
} from '../../../../shared/public/webhook-rules.js';
import type { components } from '../../api/openapi.js';
import { fieldErrorOf } from '../../data/answer.js';
import type { Action } from '../../data/use-action.js';
import { bindOf } from '../../data/use-draft.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { controlPropsOf, FieldError } from '../../ui/field.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { CheckField, TextField } from '../../ui/inputs.js';

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
  ['domain.verified', 'a sending domain was verified'],
  ['domain.failed', 'a sending domain failed (its reason in the payload)'],
  ['sending.paused', 'SES paused your sending'],
  ['sending.resumed', 'SES let your sending go on again'],
  ['journey.entered', 'a contact entered one of your journeys'],
  ['journey.step_completed', 'a contact left a step of a journey'],
  ['journey.exited', 'a contact’s way through a journey ended'],
  ['broadcast.started', 'a broadcast began reading its audience'],
  ['broadcast.completed', 'a broadcast was sent to every recipient'],
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

/** An endpoint's state in words: enabled, disabled (by the service after its failing days, or by hand), failing. */
export function stateOf(webhook: Webhook): string {
  if (!webhook.enabled)
    return webhook.disabled_reason === 'failing'
      ? `Disabled by the service: every delivery failed for ${waitText(WEBHOOK_DISABLE_AFTER_MS / 1000)}`
      : 'Disabled';
  return webhook.failing_since ? 'Enabled, failing' : 'Enabled';
}

/** The endpoint's fields: URL, description, the event types (all, or chosen), humans only. Errors at their field. */
export function WebhookForm(props: {
  idPrefix: string;
  draft: WebhookDraft;
  action: Action<[]>;
  submit: string;
  onChange: (draft: WebhookDraft) => void;
  onCancel?: () => void;
}) {
  const { idPrefix: p, draft, action, submit, onChange, onCancel } = props;
  const typesError = fieldErrorOf(action.failure, 'event_types');
  const toggle = (type: WebhookEventType, on: boolean) =>
    onChange({
      ...draft,
      event_types: on ? [...draft.event_types, type] : draft.event_types.filter((t) => t !== type),
    });
  const bind = bindOf(draft, onChange);
  return (
    <Form noValidate onSubmit={action.run} failure={action.failure}>
      <TextField
        id={`${p}-url`}
        label="Endpoint URL"
        {...bind('url')}
        hint="Where each event is POSTed, signed (Standard Webhooks). On AWS it must be https and public."
        type="url"
        spellcheck={false}
        placeholder="https://example.com/webhooks/lifecycle"
      />
      <TextField
        id={`${p}-description`}
        label="Description"
        {...bind('description')}
        maxLength={WEBHOOK_DESCRIPTION_MAX}
      />
      <fieldset class="choice-group" {...controlPropsOf(`${p}-types`, typesError, false)}>
        <legend>Event types</legend>
        <CheckField
          id={`${p}-all`}
          label="Every type, new ones included"
          type="radio"
          group={`${p}-which`}
          checked={!draft.chosen}
          onChecked={() => onChange({ ...draft, chosen: false })}
        />
        <CheckField
          id={`${p}-some`}
          label="Only these:"
          type="radio"
          group={`${p}-which`}
          checked={draft.chosen}
          onChecked={() => onChange({ ...draft, chosen: true })}
        />
        {draft.chosen && (
          <ul class="choice-list">
            {EVENT_TYPES.map(([type, meaning]) => (
              <li key={type}>
                <CheckField
                  id={`${p}-type-${type}`}
                  label={
                    <>
                      <code>{type}</code> <span class="hint">{meaning}</span>
                    </>
                  }
                  checked={draft.event_types.includes(type)}
                  onChecked={(on) => toggle(type, on)}
                />
              </li>
            ))}
          </ul>
        )}
        <FieldError id={`${p}-types`} message={typesError} />
      </fieldset>
      <CheckField
        id={`${p}-humans`}
        label="Humans only"
        name="humans_only"
        hint="Opens and clicks by machines (mail scanners, Apple Mail Privacy Protection) are not sent here."
        checked={draft.humans_only}
        onChecked={(on) => onChange({ ...draft, humans_only: on })}
      />
      <FailureAlert shownAt={['event_types']} />
      <FormActions submit={submit} busy={action.busy} onCancel={onCancel} />
    </Form>
  );
}
