import { CUSTOMIZATION_RANGE } from '../../../../../shared/public/workflow-rules.js';
import type { SendStep, SendTime } from '../../../../../shared/domain/journeys/definition/types.js';
import { MissingOption, NextSelect, PathNumber, PathSelect, usePanel } from './fields.js';

/** The send time modes as the schema numbers them, for people. */
export const SEND_TIME_NAMES: Record<SendTime['mode'], string> = {
  0: 'Immediately',
  1: 'At a preferred local time',
  2: 'At the optimal time for the contact',
};

const SEND_TIME_HINTS: Record<SendTime['mode'], string> = {
  0: 'As soon as the run reaches the step (and your send window and quiet hours allow).',
  1: 'At the hour below in the contact’s time zone; without one, at your morning or afternoon slot (Settings).',
  2: 'At the hour the contact most often opens mail (human opens only); else at the hour below, else immediately.',
};

/** The paths of the fields a send step shows, below `path` (`steps.<i>`). */
export const sendPaths = (path: string, step: SendStep): string[] => {
  const time = step.send_time;
  return [
    `${path}.template_id`,
    `${path}.priority_score`,
    `${path}.send_time.mode`,
    ...(time.mode !== 0 ? [`${path}.send_time.preferred_hour`] : []),
    ...(time.mode !== 0 && time.preferred_hour !== undefined ? [`${path}.send_time.preferred_minute`] : []),
    ...(time.mode !== 0 && time.preferred_hour === undefined ? [`${path}.send_time.slot`] : []),
    `${path}.next`,
  ];
};

/** A send step: its template, priority, send time and next step. */
export function SendForm({ step, path, onStep }: { step: SendStep; path: string; onStep: (step: SendStep) => void }) {
  const { templates } = usePanel();
  const time = step.send_time;
  const setTime = (changes: Partial<SendTime>) => {
    const merged: Record<string, unknown> = { ...time, ...changes };
    // Leave out what was emptied: the schema reads a member that is there.
    for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
    onStep({ ...step, send_time: merged as unknown as SendTime });
  };
  const templateValue = String(step.template_id);
  const hour = time.preferred_hour;
  return (
    <>
      <PathSelect
        path={`${path}.template_id`}
        label="Template"
        value={templateValue}
        onValue={(id) => onStep({ ...step, template_id: Number(id) })}
      >
        {templates.map((template) => (
          <option key={template.id} value={String(template.id)}>
            {template.name} (#{template.id})
          </option>
        ))}
        <MissingOption
          value={templateValue}
          among={templates.map((template) => String(template.id))}
          text={`Template #${templateValue} (not among your templates)`}
        />
      </PathSelect>
      <PathSelect
        path={`${path}.send_time.mode`}
        label="Send time"
        hint={SEND_TIME_HINTS[time.mode] ?? ''}
        value={String(time.mode)}
        onValue={(mode) => {
          const next = Number(mode) as SendTime['mode'];
          // Immediately reads no hour nor slot: they go with the mode.
          onStep({ ...step, send_time: next === 0 ? { mode: 0 } : { ...time, mode: next } });
        }}
      >
        {([0, 1, 2] as const).map((mode) => (
          <option key={mode} value={String(mode)}>
            {SEND_TIME_NAMES[mode]}
          </option>
        ))}
      </PathSelect>
      {time.mode !== 0 && (
        <>
          <PathNumber
            path={`${path}.send_time.preferred_hour`}
            label="Preferred hour"
            hint={`${CUSTOMIZATION_RANGE.preferred_send_hour.min}–${CUSTOMIZATION_RANGE.preferred_send_hour.max}, in the contact’s time zone. Empty: ${time.mode === 1 ? 'the slot below' : 'your slot'}.`}
            optional
            value={hour}
            onValue={(value) =>
              setTime({
                preferred_hour: value as number | undefined,
                ...(value === undefined ? { preferred_minute: undefined } : { slot: undefined }),
              })
            }
          />
          {hour !== undefined && (
            <PathNumber
              path={`${path}.send_time.preferred_minute`}
              label="Preferred minute"
              hint={`${CUSTOMIZATION_RANGE.preferred_send_minute.min}–${CUSTOMIZATION_RANGE.preferred_send_minute.max}. Empty: 0.`}
              optional
              value={time.preferred_minute}
              onValue={(value) => setTime({ preferred_minute: value as number | undefined })}
            />
          )}
          {hour === undefined && (
            <PathSelect
              path={`${path}.send_time.slot`}
              label="Slot"
              value={time.slot ?? ''}
              onValue={(slot) => setTime({ slot: slot === '' ? undefined : (slot as 'morning' | 'afternoon') })}
            >
              <option value="">Morning (the default)</option>
              <option value="morning">Morning</option>
              <option value="afternoon">Afternoon</option>
            </PathSelect>
          )}
        </>
      )}
      <PathNumber
        path={`${path}.priority_score`}
        label="Priority"
        hint={`${CUSTOMIZATION_RANGE.priority_score.min}–${CUSTOMIZATION_RANGE.priority_score.max}: which e-mail wins a contact’s daily cap when several compete. Empty: 50.`}
        optional
        value={step.priority_score}
        onValue={(value) => {
          const { priority_score: _, ...rest } = step;
          onStep(value === undefined ? rest : { ...step, priority_score: value as number });
        }}
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
