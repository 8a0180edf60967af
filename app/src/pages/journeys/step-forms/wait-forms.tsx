import { JOURNEY_LIMITS } from '../../../../../shared/public/journey-rules.js';
import type {
  WaitForEventStep,
  WaitStep,
  WaitUntilStep,
} from '../../../../../shared/domain/journeys/definition/types.js';
import { fieldErrorOf } from '../../../data/answer.js';
import { controlPropsOf, FieldError } from '../../../ui/field.js';
import { ConditionList, conditionPathsOf, EVENT_MATCH_KINDS } from '../condition-list.js';
import { sendStepsOf } from '../journey-draft-edit.js';
import { idOf, NextSelect, PathCheck, PathDuration, PathText, usePanel } from './fields.js';

const { waitMinutes, timeoutMinutes } = JOURNEY_LIMITS;

export const waitPaths = (path: string): string[] => [`${path}.minutes`, `${path}.next`];

export function WaitForm({ step, path, onStep }: { step: WaitStep; path: string; onStep: (step: WaitStep) => void }) {
  return (
    <>
      <PathDuration
        path={`${path}.minutes`}
        label="Wait for"
        hint={`From ${waitMinutes.min} minute to a year.`}
        value={step.minutes}
        onValue={(minutes) => onStep({ ...step, minutes: minutes as number })}
      />
      <NextSelect
        path={`${path}.next`}
        label="Then"
        self={step.id}
        value={step.next}
        onValue={(next) => onStep({ ...step, next })}
      />
    </>
  );
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const waitUntilPaths = (path: string): string[] => [`${path}.time`, `${path}.weekdays`, `${path}.next`];

export function WaitUntilForm(props: { step: WaitUntilStep; path: string; onStep: (step: WaitUntilStep) => void }) {
  const { step, path, onStep } = props;
  const panel = usePanel();
  const days = step.weekdays ?? [];
  const groupId = idOf(`${path}.weekdays`);
  const error = fieldErrorOf(panel.failure, `${path}.weekdays`);
  const setDay = (day: number, on: boolean) => {
    const chosen = on
      ? [...days.filter((one) => one !== day), day].sort((a, b) => a - b)
      : days.filter((one) => one !== day);
    const { weekdays: _, ...rest } = step;
    // No day ticked: any day (the member left out; an empty list is refused).
    onStep(chosen.length === 0 ? rest : { ...step, weekdays: chosen });
  };
  return (
    <>
      <PathText
        path={`${path}.time`}
        type="time"
        label="Time of day"
        hint="24-hour HH:MM in the contact’s time zone (else yours, else UTC)."
        value={step.time}
        onValue={(time) => onStep({ ...step, time })}
      />
      <fieldset class="choice-group" {...controlPropsOf(groupId, error, true)}>
        <legend>On these days</legend>
        <p id={`${groupId}-hint`} class="hint">
          None ticked: any day.
        </p>
        <ul class="choice-list">
          {WEEKDAYS.map((name, at) => (
            <li key={name}>
              <PathCheck
                path={`${path}.weekday_${at + 1}`}
                label={name}
                checked={days.includes(at + 1)}
                onChecked={(on) => setDay(at + 1, on)}
              />
            </li>
          ))}
        </ul>
        <FieldError id={groupId} message={error} />
      </fieldset>
      <NextSelect
        path={`${path}.next`}
        label="Then"
        self={step.id}
        value={step.next}
        onValue={(next) => onStep({ ...step, next })}
      />
    </>
  );
}

export const waitForEventPaths = (path: string, step: WaitForEventStep): string[] => [
  `${path}.event`,
  ...conditionPathsOf(`${path}.conditions`, step.conditions),
  `${path}.match_key`,
  `${path}.timeout_minutes`,
  `${path}.on_event`,
  `${path}.on_timeout`,
];

export function WaitForEventForm(props: {
  step: WaitForEventStep;
  path: string;
  onStep: (step: WaitForEventStep) => void;
}) {
  const { step, path, onStep } = props;
  const { definition } = usePanel();
  const key = definition.trigger.key;
  return (
    <>
      <PathText
        path={`${path}.event`}
        label="Event type awaited"
        hint="As your product sends it to POST /client/events, e.g. checkout_completed."
        value={step.event}
        onValue={(event) => onStep({ ...step, event })}
        maxLength={100}
      />
      <PathCheck
        path={`${path}.match_key`}
        label={
          key
            ? `Only an event with the same ${key} as the trigger’s`
            : 'Only an event with the same key as the trigger’s'
        }
        hint={key ? undefined : 'Needs a key on the trigger (e.g. cart_id): one run per value.'}
        checked={step.match_key}
        onChecked={(match_key) => onStep({ ...step, match_key })}
      />
      <ConditionList
        path={`${path}.conditions`}
        legend="Conditions on the awaited event"
        hint="All must hold for the event to count. An event condition reads the awaited event."
        conditions={step.conditions}
        sendSteps={sendStepsOf(definition, step.id)}
        kinds={EVENT_MATCH_KINDS}
        onChange={(conditions) => {
          const { conditions: _, ...rest } = step;
          onStep(conditions.length === 0 ? rest : { ...step, conditions });
        }}
      />
      <PathDuration
        path={`${path}.timeout_minutes`}
        label="Wait at most"
        hint={`From ${timeoutMinutes.min} minute to 90 days; exactly one of the event and the timeout moves the run on.`}
        value={step.timeout_minutes}
        onValue={(minutes) => onStep({ ...step, timeout_minutes: minutes as number })}
      />
      <NextSelect
        path={`${path}.on_event`}
        label="When the event comes"
        self={step.id}
        value={step.on_event}
        onValue={(on_event) => onStep({ ...step, on_event })}
      />
      <NextSelect
        path={`${path}.on_timeout`}
        label="On timeout"
        self={step.id}
        value={step.on_timeout}
        onValue={(on_timeout) => onStep({ ...step, on_timeout })}
      />
    </>
  );
}
