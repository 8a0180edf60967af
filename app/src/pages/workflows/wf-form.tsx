import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { MAX_EXIT_EVENTS } from '../../../../shared/public/workflow-rules.js';
import type { Api } from '../../api/client.js';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError } from '../../ui/field-error.js';
import { delayText, eventsText, SEND_TIME_MODES, type Topic, type Workflow } from './wf-text.js';

type Template = components['schemas']['EmailTemplateSummary'];
type Patch = NonNullable<operations['workflowsCustomizationUpdate']['requestBody']>['content']['application/json'];

const NUMBER_FIELDS = [
  'delay_minutes',
  'priority_score',
  'preferred_send_hour',
  'preferred_send_minute',
  'conversion_window_days',
] as const;
const CHOICE_FIELDS = ['template_id', 'send_time_mode', 'topic_id'] as const;
type Scalar = (typeof NUMBER_FIELDS)[number] | (typeof CHOICE_FIELDS)[number];
const FIELD_KEYS: readonly string[] = [...NUMBER_FIELDS, ...CHOICE_FIELDS, 'exit_events', 'category'];

/** The form's state: each override as typed ('' = none, the default applies), the exit events as a list or the default. */
export interface Draft {
  fields: Record<Scalar, string>;
  /** null: the catalog's default exit events. */
  exitEvents: string[] | null;
}

const text = (value: number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/** The client's overrides as the form shows them. */
export function draftOf(workflow: Workflow): Draft {
  const o = workflow.customization.overrides;
  const fields = Object.fromEntries([...NUMBER_FIELDS, ...CHOICE_FIELDS].map((key) => [key, text(o[key])])) as Record<
    Scalar,
    string
  >;
  return { fields, exitEvents: o.exit_events === null ? null : [...o.exit_events] };
}

/** A number as typed; anything else goes as typed, for the API to refuse at its field. */
const numberOrText = (raw: string): number | string => (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw.trim());

/** What the form sends: only what changed since the load; an emptied field is null (back to the default). */
export function patchOf(draft: Draft, saved: Draft): Patch {
  const body: Record<string, unknown> = {};
  for (const key of [...NUMBER_FIELDS, ...CHOICE_FIELDS]) {
    const raw = draft.fields[key].trim();
    if (raw === saved.fields[key]) continue;
    body[key] = raw === '' ? null : numberOrText(raw);
  }
  // A minute needs its hour in the same request (dependentRequired): send the hour kept.
  if (
    'preferred_send_minute' in body &&
    !('preferred_send_hour' in body) &&
    draft.fields.preferred_send_hour.trim() !== ''
  ) {
    body['preferred_send_hour'] = numberOrText(draft.fields.preferred_send_hour);
  }
  const events = draft.exitEvents === null ? null : draft.exitEvents.map((event) => event.trim());
  if (JSON.stringify(events) !== JSON.stringify(saved.exitEvents)) body['exit_events'] = events;
  return body as Patch;
}

/** Ids and words of a field: its error (first, so `aria-describedby` names it first) and its hint. */
function described(id: string, error: string | undefined) {
  return {
    'aria-describedby': [error ? `${id}-error` : '', `${id}-hint`].filter(Boolean).join(' '),
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
}

function Field(props: {
  id: string;
  label: string;
  error: string | undefined;
  hint: ComponentChildren;
  children: ComponentChildren;
}) {
  const { id, label, error, hint, children } = props;
  return (
    <div class="st-field">
      <label for={id}>{label}</label>
      {children}
      <FieldError id={`${id}-error`} message={error} />
      <p id={`${id}-hint`} class="hint">
        {hint}
      </p>
    </div>
  );
}

/**
 * The customization form (PATCH /client/workflows/{id}/customization): template, delay, priority, send time mode and
 * preferred time, exit events, conversion window, topic (marketing only). Empty means the workflow's default, shown
 * beside each field. The API's error items are shown at their field.
 */
export function CustomizationForm(props: {
  api: Api;
  workflow: Workflow;
  templates: Template[] | undefined;
  topics: Topic[] | undefined;
  onSaved: () => void;
}) {
  const { api, workflow, templates, topics, onSaved } = props;
  const saved = draftOf(workflow);
  const [draft, setDraft] = useState<Draft>(saved);
  const [failure, setFailure] = useState<Failure | undefined>();
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState('');
  const { defaults, customization } = workflow;
  const marketing = workflow.category === 'marketing';
  // The workflow read again after a save: the form starts from what the API now has (not at mount: the
  // effect runs after the first paint, and would drop what was typed meanwhile).
  const shown = useRef(workflow);
  useEffect(() => {
    if (shown.current === workflow) return;
    shown.current = workflow;
    setDraft(draftOf(workflow));
  }, [workflow]);

  const set = (key: Scalar, value: string) => setDraft({ ...draft, fields: { ...draft.fields, [key]: value } });
  const error = (key: string) => fieldErrorOf(failure, key);
  const input = (key: Scalar, mode: 'numeric' = 'numeric') => ({
    id: `wf-${key}`,
    name: key,
    type: 'text' as const,
    inputMode: mode,
    autocomplete: 'off',
    value: draft.fields[key],
    onInput: (event: Event) => set(key, (event.currentTarget as HTMLInputElement).value),
    ...described(`wf-${key}`, error(key)),
  });

  // The send time's radios: the one error under the group, then each radio's own explanation.
  const modeProps = (hintId: string) => ({
    'aria-describedby': [error('send_time_mode') ? 'wf-send_time_mode-error' : '', hintId].filter(Boolean).join(' '),
    ...(error('send_time_mode') ? { 'aria-invalid': true as const } : {}),
  });

  async function onSubmit(event: Event) {
    event.preventDefault();
    const body = patchOf(draft, saved);
    setDone('');
    setFailure(undefined);
    if (Object.keys(body).length === 0) {
      setDone('Nothing changed.');
      return;
    }
    setSaving(true);
    try {
      await answerOf(
        api.PATCH('/api/v1/client/workflows/{workflow_id}/customization', {
          params: { path: { workflow_id: String(workflow.id) } },
          body,
        }),
        'Saving the customization',
      );
      setDone('Customization saved.');
      onSaved();
    } catch (caught) {
      setFailure(failureOfError(caught));
    } finally {
      setSaving(false);
    }
  }

  const systemTemplate = templates?.find((template) => template.id === defaults.template_id);
  const own = (templates ?? []).filter((template) => template.type === 2 && !template.deleted_at);
  // An override the lists do not hold (another system template, set through the API) stays choosable.
  const current = workflow.template;
  const extra =
    current && current.id !== defaults.template_id && !own.some((template) => template.id === current.id)
      ? current
      : null;
  const shownAt = [
    ...FIELD_KEYS,
    ...(failure?.errors ?? []).map((item) => item.key ?? '').filter((key) => key.startsWith('exit_events.')),
  ];

  return (
    <form class="wf-form" id="wf-customization" noValidate onSubmit={onSubmit} aria-labelledby="wf-form-title">
      <h2 id="wf-form-title">Customization</h2>
      <p class="hint">
        Empty fields use the workflow’s default, named under each. Only what you change is sent; each change is kept in
        the history below.
      </p>
      <fieldset class="card st-group">
        <legend>Template</legend>
        <Field
          id="wf-template_id"
          label="Template"
          error={error('template_id')}
          hint={
            templates
              ? 'Your own templates are listed after the system one. Copy the system template below to make one from it.'
              : 'Loading your templates…'
          }
        >
          <select
            id="wf-template_id"
            name="template_id"
            value={draft.fields.template_id}
            onChange={(event) => set('template_id', event.currentTarget.value)}
            {...described('wf-template_id', error('template_id'))}
          >
            <option value="">
              System template{systemTemplate ? `: ${systemTemplate.name}` : ''} (#{defaults.template_id}, default)
            </option>
            {extra && <option value={String(extra.id)}>{`${extra.name} (#${extra.id})`}</option>}
            {own.map((template) => (
              <option key={template.id} value={String(template.id)}>
                {`${template.name} (#${template.id}, yours)`}
              </option>
            ))}
          </select>
        </Field>
      </fieldset>
      <fieldset class="card st-group">
        <legend>Timing</legend>
        <Field
          id="wf-delay_minutes"
          label="Delay (minutes)"
          error={error('delay_minutes')}
          hint={`After the event, before sending. 0–525600 (a year). Empty: ${defaults.delay_minutes} (${delayText(defaults.delay_minutes)}).`}
        >
          <input {...input('delay_minutes')} placeholder={String(defaults.delay_minutes)} />
        </Field>
        <Field
          id="wf-priority_score"
          label="Priority"
          error={error('priority_score')}
          hint={`0–100: which e-mail goes first when several compete for a contact’s daily limit. Empty: ${defaults.priority_score}.`}
        >
          <input {...input('priority_score')} placeholder={String(defaults.priority_score)} />
        </Field>
        <fieldset class="wf-modes">
          <legend>Send time</legend>
          <label class="wf-mode">
            <input
              type="radio"
              name="send_time_mode"
              value=""
              checked={draft.fields.send_time_mode === ''}
              onChange={() => set('send_time_mode', '')}
              {...modeProps('wf-mode-default-hint')}
            />
            <span>
              <strong>Default</strong>
              <span class="hint" id="wf-mode-default-hint">
                At a preferred time when a preferred hour is set, else the workflow’s own (
                {SEND_TIME_MODES[defaults.send_time_mode]!.name.toLowerCase()}). In effect now:{' '}
                {SEND_TIME_MODES[customization.send_time_mode]!.name.toLowerCase()}.
              </span>
            </span>
          </label>
          {SEND_TIME_MODES.map((mode) => (
            <label class="wf-mode" key={mode.mode}>
              <input
                type="radio"
                name="send_time_mode"
                value={String(mode.mode)}
                checked={draft.fields.send_time_mode === String(mode.mode)}
                onChange={() => set('send_time_mode', String(mode.mode))}
                {...modeProps(`wf-mode-${mode.mode}-hint`)}
              />
              <span>
                <strong>
                  {mode.mode} · {mode.name}
                </strong>
                <span class="hint" id={`wf-mode-${mode.mode}-hint`}>
                  {mode.about}
                </span>
              </span>
            </label>
          ))}
          <FieldError id="wf-send_time_mode-error" message={error('send_time_mode')} />
        </fieldset>
        <Field
          id="wf-preferred_send_hour"
          label="Preferred hour"
          error={error('preferred_send_hour')}
          hint={`0–23, in the contact’s time zone; setting it makes the send time “at a preferred time” unless chosen above. Empty: ${defaults.send_slot ? `the ${defaults.send_slot} slot of your settings` : 'none'}.`}
        >
          <input {...input('preferred_send_hour')} />
        </Field>
        <Field
          id="wf-preferred_send_minute"
          label="Preferred minute"
          error={error('preferred_send_minute')}
          hint="0–59, with a preferred hour. Empty: 0."
        >
          <input {...input('preferred_send_minute')} />
        </Field>
      </fieldset>
      <fieldset class="card st-group">
        <legend>Goals</legend>
        <ExitEvents
          draft={draft}
          defaults={defaults.exit_events}
          failure={failure}
          onChange={(exitEvents) => setDraft({ ...draft, exitEvents })}
        />
        <Field
          id="wf-conversion_window_days"
          label="Conversion window (days)"
          error={error('conversion_window_days')}
          hint={`1–90: an exit event this many days or fewer after the e-mail counts as a conversion. Empty: ${defaults.conversion_window_days}.`}
        >
          <input {...input('conversion_window_days')} placeholder={String(defaults.conversion_window_days)} />
        </Field>
      </fieldset>
      {marketing ? (
        <fieldset class="card st-group">
          <legend>Topic</legend>
          <Field
            id="wf-topic_id"
            label="Topic"
            error={error('topic_id')}
            hint={
              topics && topics.length === 0 ? (
                <>
                  You have no topic yet: create one on <Link page="topics">the Topics page</Link>.
                </>
              ) : (
                'A contact who left this topic is skipped. Empty: none.'
              )
            }
          >
            <select
              id="wf-topic_id"
              name="topic_id"
              value={draft.fields.topic_id}
              onChange={(event) => set('topic_id', event.currentTarget.value)}
              {...described('wf-topic_id', error('topic_id'))}
            >
              <option value="">None</option>
              {(topics ?? []).map((topic) => (
                <option key={topic.id} value={String(topic.id)}>
                  {topic.name}
                </option>
              ))}
              {draft.fields.topic_id &&
                topics &&
                !topics.some((topic) => String(topic.id) === draft.fields.topic_id) && (
                  <option value={draft.fields.topic_id}>Topic #{draft.fields.topic_id}</option>
                )}
            </select>
          </Field>
        </fieldset>
      ) : (
        <p class="hint">
          A transactional workflow belongs to no topic: it reaches every contact who is not suppressed.
        </p>
      )}
      <FailureAlert failure={failure} shownAt={shownAt} />
      <div class="st-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save customization'}
        </button>
        <p role="status" class="st-done wf-done">
          {done}
        </p>
      </div>
    </form>
  );
}

/** The exit events: the catalog's default, or a list of event types (at most 10) edited row by row. */
function ExitEvents(props: {
  draft: Draft;
  defaults: string[];
  failure: Failure | undefined;
  onChange: (events: string[] | null) => void;
}) {
  const { draft, defaults, failure, onChange } = props;
  const events = draft.exitEvents;
  const groupError = fieldErrorOf(failure, 'exit_events');
  return (
    <fieldset
      class="wf-exits"
      aria-describedby={[groupError ? 'wf-exit_events-error' : '', 'wf-exit_events-hint'].filter(Boolean).join(' ')}
      {...(groupError ? { 'aria-invalid': true as const } : {})}
    >
      <legend>Exit events</legend>
      <p id="wf-exit_events-hint" class="hint">
        Event types that end the workflow for a contact (its goal is met): its e-mails not yet sent are cancelled.{' '}
        <code>*</code> is any event; the event that starts the workflow cannot be one. The default:{' '}
        {eventsText(defaults)}.
      </p>
      <label class="wf-check">
        <input
          type="checkbox"
          id="wf-exit-default"
          checked={events === null}
          onChange={(event) => onChange(event.currentTarget.checked ? null : [...defaults])}
        />
        Use the default ({eventsText(defaults)})
      </label>
      {events !== null && (
        <>
          {events.length === 0 && <p class="hint">None: nothing ends this workflow early.</p>}
          <ol class="wf-exit-list">
            {events.map((value, index) => {
              const id = `wf-exit-${index}`;
              const itemError = fieldErrorOf(failure, `exit_events.${index}`);
              return (
                <li key={index}>
                  <label for={id}>Exit event {index + 1}</label>
                  <div class="wf-exit-row">
                    <input
                      id={id}
                      type="text"
                      autocomplete="off"
                      spellcheck={false}
                      value={value}
                      onInput={(event) =>
                        onChange(events.map((old, at) => (at === index ? event.currentTarget.value : old)))
                      }
                      {...(itemError ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {})}
                    />
                    <button
                      type="button"
                      class="st-small st-secondary"
                      aria-label={`Remove exit event ${index + 1}`}
                      onClick={() => onChange(events.filter((_, at) => at !== index))}
                    >
                      Remove
                    </button>
                  </div>
                  <FieldError id={`${id}-error`} message={itemError} />
                </li>
              );
            })}
          </ol>
          <button
            type="button"
            class="st-small st-secondary"
            disabled={events.length >= MAX_EXIT_EVENTS}
            onClick={() => onChange([...events, ''])}
          >
            Add an exit event
          </button>
          {events.length >= MAX_EXIT_EVENTS && <p class="hint">At most {MAX_EXIT_EVENTS}.</p>}
        </>
      )}
      <FieldError id="wf-exit_events-error" message={groupError} />
    </fieldset>
  );
}
