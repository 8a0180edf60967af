import { useMemo } from 'preact/hooks';
import { CUSTOMIZATION_RANGE, MAX_EXIT_EVENTS } from '../../../../shared/public/workflow-rules.js';
import type { Api } from '../../api/client.js';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf, type Failure, fieldErrorOf } from '../../data/answer.js';
import { type Encoders, patchOf as kitPatchOf, usePatch } from '../../data/use-patch.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { controlPropsOf, Field, FieldError } from '../../ui/field.js';
import { FieldGroup } from '../../ui/field-group.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { CheckField, Options, SelectField, TextField } from '../../ui/inputs.js';
import { Done } from '../../ui/status.js';
import { delayText, eventsText, SEND_TIME_MODES, type Topic, type Workflow } from './workflow-text.js';

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
const SCALARS = [...NUMBER_FIELDS, ...CHOICE_FIELDS] as const;

/** The form's state: each override as typed ('' = none, the default applies), the exit events as a list or the default. */
export type Draft = Record<Scalar, string> & {
  /** null: the catalog's default exit events. */
  exit_events: string[] | null;
};

const text = (value: number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/** The client's overrides as the form shows them. */
export function draftOf(workflow: Workflow): Draft {
  const o = workflow.customization.overrides;
  const fields = Object.fromEntries(SCALARS.map((key) => [key, text(o[key])])) as Record<Scalar, string>;
  return { ...fields, exit_events: o.exit_events === null ? null : [...o.exit_events] };
}

/** A number as typed; anything else goes as typed, for the API to refuse at its field. */
const numberOrText = (raw: string): number | string => (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw.trim());

/** An override as sent: an emptied field is null (back to the default). */
const overrideOf = (raw: string): number | string | null => (raw.trim() === '' ? null : numberOrText(raw));

const ENCODERS: Encoders<Draft> = {
  ...Object.fromEntries(SCALARS.map((key) => [key, overrideOf])),
  exit_events: (events) => (events === null ? null : events.map((event) => event.trim())),
};

/** A minute needs its hour in the same request (dependentRequired): send the hour kept. */
function withHour(body: Record<string, unknown>, draft: Draft): Record<string, unknown> {
  if ('preferred_send_minute' in body && !('preferred_send_hour' in body) && draft.preferred_send_hour.trim() !== '')
    return { ...body, preferred_send_hour: numberOrText(draft.preferred_send_hour) };
  return body;
}

/** What the form sends: only what changed since the load; an emptied field is null (back to the default). */
export const patchOf = (draft: Draft, saved: Draft): Patch => kitPatchOf(draft, saved, ENCODERS, withHour) as Patch;

const range = (key: keyof typeof CUSTOMIZATION_RANGE) =>
  `${CUSTOMIZATION_RANGE[key].min}–${CUSTOMIZATION_RANGE[key].max}`;

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
  const saved = useMemo(() => draftOf(workflow), [workflow]);
  const patch = usePatch({
    saved,
    encoders: ENCODERS,
    complete: withHour,
    send: async (body) => {
      await answerOf(
        api.PATCH('/api/v1/client/workflows/{workflow_id}/customization', {
          params: { path: { workflow_id: String(workflow.id) } },
          body: body as Patch,
        }),
        'Saving the customization',
      );
      onSaved();
      return 'Customization saved.';
    },
  });
  const { draft, failure } = patch;
  const { defaults, customization } = workflow;
  const marketing = workflow.category === 'marketing';

  /** An override typed as a number (the API judges what is typed); its placeholder is the default. */
  const numberField = (key: (typeof NUMBER_FIELDS)[number], label: string, hint: string, placeholder?: number) => (
    <TextField
      id={`wf-${key}`}
      label={label}
      name={key}
      hint={hint}
      value={draft[key]}
      onValue={(value) => patch.set(key, value)}
      inputMode="numeric"
      placeholder={placeholder === undefined ? undefined : String(placeholder)}
    />
  );

  // The send time's radios: the one error under the group, then each radio's own explanation.
  const modeError = fieldErrorOf(failure, 'send_time_mode');
  const modeProps = (hintId: string) => controlPropsOf('wf-send_time_mode', modeError, false, [hintId]);

  const systemTemplate = templates?.find((template) => template.id === defaults.template_id);
  const own = (templates ?? []).filter((template) => template.type === 2 && !template.deleted_at);
  // An override the lists do not hold (another system template, set through the API) stays choosable.
  const current = workflow.template;
  const extra =
    current && current.id !== defaults.template_id && !own.some((template) => template.id === current.id)
      ? current
      : null;

  return (
    <Form
      class="page-section"
      id="wf-customization"
      noValidate
      onSubmit={patch.run}
      failure={failure}
      aria-labelledby="wf-form-title"
    >
      <h2 id="wf-form-title">Customization</h2>
      <p class="hint">
        Empty fields use the workflow’s default, named under each. Only what you change is sent; each change is kept in
        the history below.
      </p>
      <FieldGroup legend="Template">
        <SelectField
          id="wf-template_id"
          label="Template"
          name="template_id"
          hint={
            templates
              ? 'Your own templates are listed after the system one. Copy the system template below to make one from it.'
              : 'Loading your templates…'
          }
          value={draft.template_id}
          onValue={(value) => patch.set('template_id', value)}
        >
          <option value="">
            System template{systemTemplate ? `: ${systemTemplate.name}` : ''} (#{defaults.template_id}, default)
          </option>
          {extra && <option value={String(extra.id)}>{`${extra.name} (#${extra.id})`}</option>}
          <Options
            of={own}
            value={(template) => template.id}
            text={(template) => `${template.name} (#${template.id}, yours)`}
          />
        </SelectField>
      </FieldGroup>
      <FieldGroup legend="Timing">
        {numberField(
          'delay_minutes',
          'Delay (minutes)',
          `After the event, before sending. ${range('delay_minutes')} (a year). Empty: ${defaults.delay_minutes} (${delayText(defaults.delay_minutes)}).`,
          defaults.delay_minutes,
        )}
        {numberField(
          'priority_score',
          'Priority',
          `${range('priority_score')}: which e-mail goes first when several compete for a contact’s daily limit. Empty: ${defaults.priority_score}.`,
          defaults.priority_score,
        )}
        <fieldset class="choice-group">
          <legend>Send time</legend>
          <label class="choice">
            <input
              {...modeProps('wf-mode-default-hint')}
              id="wf-mode-default"
              type="radio"
              name="send_time_mode"
              value=""
              checked={draft.send_time_mode === ''}
              onChange={() => patch.set('send_time_mode', '')}
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
            <label class="choice" key={mode.mode}>
              <input
                {...modeProps(`wf-mode-${mode.mode}-hint`)}
                id={`wf-mode-${mode.mode}`}
                type="radio"
                name="send_time_mode"
                value={String(mode.mode)}
                checked={draft.send_time_mode === String(mode.mode)}
                onChange={() => patch.set('send_time_mode', String(mode.mode))}
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
          <FieldError id="wf-send_time_mode" message={modeError} />
        </fieldset>
        {numberField(
          'preferred_send_hour',
          'Preferred hour',
          `${range('preferred_send_hour')}, in the contact’s time zone; setting it makes the send time “at a preferred time” unless chosen above. Empty: ${defaults.send_slot ? `the ${defaults.send_slot} slot of your settings` : 'none'}.`,
        )}
        {numberField(
          'preferred_send_minute',
          'Preferred minute',
          `${range('preferred_send_minute')}, with a preferred hour. Empty: 0.`,
        )}
      </FieldGroup>
      <FieldGroup legend="Goals">
        <ExitEvents
          events={draft.exit_events}
          defaults={defaults.exit_events}
          failure={failure}
          onChange={(events) => patch.set('exit_events', events)}
        />
        {numberField(
          'conversion_window_days',
          'Conversion window (days)',
          `${range('conversion_window_days')}: an exit event this many days or fewer after the e-mail counts as a conversion. Empty: ${defaults.conversion_window_days}.`,
          defaults.conversion_window_days,
        )}
      </FieldGroup>
      {marketing ? (
        <FieldGroup legend="Topic">
          <SelectField
            id="wf-topic_id"
            label="Topic"
            name="topic_id"
            hint={
              topics && topics.length === 0 ? (
                <>
                  You have no topic yet: create one on <Link page="topics">the Topics page</Link>.
                </>
              ) : (
                'A contact who left this topic is skipped. Empty: none.'
              )
            }
            value={draft.topic_id}
            onValue={(value) => patch.set('topic_id', value)}
          >
            <option value="">None</option>
            <Options of={topics ?? []} value={(topic) => topic.id} text={(topic) => topic.name} />
            {draft.topic_id && topics && !topics.some((topic) => String(topic.id) === draft.topic_id) && (
              <option value={draft.topic_id}>Topic #{draft.topic_id}</option>
            )}
          </SelectField>
        </FieldGroup>
      ) : (
        <p class="hint">
          A transactional workflow belongs to no topic: it reaches every contact who is not suppressed.
        </p>
      )}
      <FailureAlert shownAt={['send_time_mode', 'exit_events']} />
      <FormActions submit="Save customization" busy={patch.busy} busyLabel="Saving…">
        <Done text={patch.done} />
      </FormActions>
    </Form>
  );
}

/** The exit events: the catalog's default, or a list of event types (at most MAX_EXIT_EVENTS) edited row by row. */
function ExitEvents(props: {
  events: string[] | null;
  defaults: string[];
  failure: Failure | undefined;
  onChange: (events: string[] | null) => void;
}) {
  const { events, defaults, failure, onChange } = props;
  const groupError = fieldErrorOf(failure, 'exit_events');
  return (
    <fieldset class="choice-group" {...controlPropsOf('wf-exit_events', groupError, true)}>
      <legend>Exit events</legend>
      <p id="wf-exit_events-hint" class="hint">
        Event types that end the workflow for a contact (its goal is met): its e-mails not yet sent are cancelled.{' '}
        <code>*</code> is any event; the event that starts the workflow cannot be one. The default:{' '}
        {eventsText(defaults)}.
      </p>
      <CheckField
        id="wf-exit-default"
        label={`Use the default (${eventsText(defaults)})`}
        checked={events === null}
        onChecked={(checked) => onChange(checked ? null : [...defaults])}
      />
      {events !== null && (
        <>
          {events.length === 0 && <p class="hint">None: nothing ends this workflow early.</p>}
          <ol class="input-list">
            {events.map((value, index) => (
              <li key={index}>
                <Field id={`wf-exit-${index}`} label={`Exit event ${index + 1}`} name={`exit_events.${index}`}>
                  {(control) => (
                    <div class="input-row">
                      <input
                        {...control}
                        type="text"
                        autocomplete="off"
                        spellcheck={false}
                        value={value}
                        onInput={(event) =>
                          onChange(events.map((old, at) => (at === index ? event.currentTarget.value : old)))
                        }
                      />
                      <button
                        type="button"
                        class="small secondary"
                        aria-label={`Remove exit event ${index + 1}`}
                        onClick={() => onChange(events.filter((_, at) => at !== index))}
                      >
                        Remove
                      </button>
                    </div>
                  )}
                </Field>
              </li>
            ))}
          </ol>
          <button
            type="button"
            class="small secondary"
            disabled={events.length >= MAX_EXIT_EVENTS}
            onClick={() => onChange([...events, ''])}
          >
            Add an exit event
          </button>
          {events.length >= MAX_EXIT_EVENTS && <p class="hint">At most {MAX_EXIT_EVENTS}.</p>}
        </>
      )}
      <FieldError id="wf-exit_events" message={groupError} />
    </fieldset>
  );
}
