import { JOURNEY_LIMITS } from '../../../../../shared/public/journey-rules.js';
import type { JourneyTrigger, Reentry } from '../../../../../shared/domain/journeys/definition/types.js';
import { ConditionList, conditionPathsOf } from '../condition-list.js';
import { sendStepsOf } from '../journey-draft-edit.js';
import type { JourneyDefinition } from '../journey-text.js';
import { MissingOption, PathNumber, PathSelect, PathText, stepOptionText, usePanel } from './fields.js';

export const triggerPaths = (trigger: JourneyTrigger): string[] => [
  'trigger.event',
  'trigger.segment',
  ...(trigger.segment ? ['trigger.segment.segment_id', 'trigger.segment.on'] : []),
  ...conditionPathsOf('trigger.conditions', trigger.conditions),
  ...conditionPathsOf('trigger.or_when', trigger.or_when),
  'trigger.key',
  'trigger.reentry.mode',
  ...(trigger.reentry.mode === 'every_days' ? ['trigger.reentry.days'] : []),
  'entry',
];

type Starts = 'event' | 'enter' | 'leave';

/**
 * The trigger started another way: an event type (the segment goes), or a segment entered or left (the event, its key
 * and `or_when` go: a segment move has no event property to read). The segment kept, else the first offered.
 */
export function triggerStartingBy(
  trigger: JourneyTrigger,
  starts: Starts,
  segmentIds: readonly number[],
): JourneyTrigger {
  const { event, segment, key, or_when, ...rest } = trigger;
  if (starts === 'event')
    return { ...rest, event: event ?? '', ...(key !== undefined ? { key } : {}), ...(or_when ? { or_when } : {}) };
  return { ...rest, segment: { segment_id: segment?.segment_id ?? segmentIds[0] ?? 0, on: starts } };
}

/**
 * What starts a run: an event type (its conditions, its key) or a contact entering or leaving a segment; the re-entry
 * rule; and the first step.
 */
export function TriggerForm(props: { onChange: (definition: JourneyDefinition) => void }) {
  const { definition, segments } = usePanel();
  const trigger = definition.trigger;
  const setTrigger = (next: JourneyTrigger) => props.onChange({ ...definition, trigger: next });
  const without = (key: 'conditions' | 'or_when' | 'key'): JourneyTrigger => {
    const { [key]: _, ...rest } = trigger;
    return rest as JourneyTrigger;
  };
  const mode = trigger.reentry.mode;
  const ids = definition.steps.map((step) => step.id);
  const segment = trigger.segment;
  const starts: Starts = segment ? segment.on : 'event';
  const segmentValue = segment ? String(segment.segment_id) : '';
  return (
    <>
      <PathSelect
        path="trigger.segment"
        label="Starts a run"
        value={starts}
        onValue={(chosen) =>
          setTrigger(
            triggerStartingBy(
              trigger,
              chosen as Starts,
              segments.map((s) => s.id),
            ),
          )
        }
      >
        <option value="event">When the product sends an event</option>
        <option value="enter">When a contact enters a segment</option>
        <option value="leave">When a contact leaves a segment</option>
      </PathSelect>
      {segment ? (
        <PathSelect
          path="trigger.segment.segment_id"
          label="Segment"
          hint="Only moves after the journey went live count: contacts already in the segment start no run."
          value={segmentValue}
          onValue={(id) => setTrigger({ ...trigger, segment: { ...segment, segment_id: Number(id) } })}
        >
          {segments.map((one) => (
            <option key={one.id} value={String(one.id)}>
              {one.name}
            </option>
          ))}
          <MissingOption
            value={segmentValue}
            among={segments.map((one) => String(one.id))}
            text={segment.segment_id > 0 ? `Segment #${segmentValue} (not found)` : 'Choose a segment'}
          />
        </PathSelect>
      ) : (
        <>
          <PathText
            path="trigger.event"
            label="Event type"
            hint="Any type your product sends to POST /client/events, e.g. cart_abandoned."
            value={trigger.event}
            onValue={(event) => setTrigger({ ...trigger, event })}
            maxLength={100}
          />
          <PathText
            path="trigger.key"
            label="Key (optional)"
            hint="An event property, e.g. cart_id: one run per contact and value; a wait for an event can match it."
            value={trigger.key}
            onValue={(key) => setTrigger(key === '' ? without('key') : { ...trigger, key })}
            maxLength={200}
          />
        </>
      )}
      <PathSelect
        path="trigger.reentry.mode"
        label="A contact enters"
        value={mode}
        onValue={(chosen) => {
          const reentry: Reentry =
            chosen === 'every_days'
              ? { mode: 'every_days', days: trigger.reentry.mode === 'every_days' ? trigger.reentry.days : 30 }
              : { mode: chosen as 'once' | 'always' };
          setTrigger({ ...trigger, reentry });
        }}
      >
        <option value="once">Once ever</option>
        <option value="every_days">Again after some days</option>
        <option value="always">Every time (once the last run ended)</option>
      </PathSelect>
      {trigger.reentry.mode === 'every_days' && (
        <PathNumber
          path="trigger.reentry.days"
          label="Days before entering again"
          hint={`${JOURNEY_LIMITS.reentryDays.min}–${JOURNEY_LIMITS.reentryDays.max}, counted from the last run’s start, once it ended.`}
          value={trigger.reentry.days}
          onValue={(days) => setTrigger({ ...trigger, reentry: { mode: 'every_days', days: days as number } })}
        />
      )}
      <PathSelect
        path="entry"
        label="First step"
        value={definition.entry}
        onValue={(entry) => props.onChange({ ...definition, entry })}
      >
        {definition.steps.map((step) => (
          <option key={step.id} value={step.id}>
            {stepOptionText(step)}
          </option>
        ))}
        <MissingOption value={definition.entry} among={ids} text={`${definition.entry} (no such step)`} />
      </PathSelect>
      <ConditionList
        path="trigger.conditions"
        legend="Conditions to start"
        hint="On the event and the contact: all must hold for a run to start."
        conditions={trigger.conditions}
        sendSteps={sendStepsOf(definition)}
        kinds={['event', 'contact', 'custom_field', 'tag', 'topic']}
        onChange={(conditions) =>
          setTrigger(conditions.length === 0 ? without('conditions') : { ...trigger, conditions })
        }
      />
      {!segment && (
        <ConditionList
          path="trigger.or_when"
          legend="Or on any event when"
          hint="Also starts a run on an event of any type meeting all these (e.g. upgrade is true)."
          conditions={trigger.or_when}
          sendSteps={[]}
          kinds={['event']}
          onChange={(conditions) =>
            setTrigger(conditions.length === 0 ? without('or_when') : { ...trigger, or_when: conditions })
          }
        />
      )}
    </>
  );
}
