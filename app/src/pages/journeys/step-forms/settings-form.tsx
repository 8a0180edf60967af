import { CUSTOMIZATION_RANGE, MAX_EXIT_EVENTS } from '../../../../../shared/public/workflow-rules.js';
import type { JourneySettings } from '../../../../../shared/domain/journeys/definition/types.js';
import type { JourneyDefinition } from '../journey-text.js';
import { MissingOption, PathCheck, PathLines, PathNumber, PathSelect, usePanel } from './fields.js';

export const settingsPaths = (settings: JourneySettings): string[] => [
  'settings.category',
  settings.category === 'marketing' ? 'settings.topic_id' : 'settings.critical',
  'settings.exit_events',
  'settings.conversion_window_days',
];

/** The journey's mail kind, topic, critical flag, exit events and conversion window. */
export function SettingsForm(props: { onChange: (definition: JourneyDefinition) => void }) {
  const { definition, topics } = usePanel();
  const settings = definition.settings;
  const set = (changes: Partial<JourneySettings>) =>
    props.onChange({ ...definition, settings: { ...settings, ...changes } });
  const topicValue = settings.topic_id === null ? '' : String(settings.topic_id);
  const range = CUSTOMIZATION_RANGE.conversion_window_days;
  return (
    <>
      <PathSelect
        path="settings.category"
        label="Category"
        hint="Transactional: mail the contact needs to use the product (reaches unsubscribed contacts). Marketing: the rest."
        value={settings.category}
        onValue={(category) =>
          // A topic is marketing's, critical transactional's: the other goes with the change.
          set(
            category === 'marketing'
              ? { category: 'marketing', critical: false }
              : { category: 'transactional', topic_id: null },
          )
        }
      >
        <option value="marketing">Marketing</option>
        <option value="transactional">Transactional</option>
      </PathSelect>
      {settings.category === 'marketing' ? (
        <PathSelect
          path="settings.topic_id"
          label="Topic"
          hint="A contact who left the topic gets none of the journey’s e-mails."
          value={topicValue}
          onValue={(id) => set({ topic_id: id === '' ? null : Number(id) })}
        >
          <option value="">None</option>
          {topics.map((topic) => (
            <option key={topic.id} value={String(topic.id)}>
              {topic.name}
            </option>
          ))}
          <MissingOption
            value={topicValue}
            among={topics.map((topic) => String(topic.id))}
            text={`Topic #${topicValue} (not found)`}
          />
        </PathSelect>
      ) : (
        <PathCheck
          path="settings.critical"
          label="Critical: may pass the contact’s daily cap"
          hint="When your settings allow critical mail to."
          checked={settings.critical}
          onChecked={(critical) => set({ critical })}
        />
      )}
      <PathLines
        path="settings.exit_events"
        label="Exit events"
        hint={`Event types that end a contact’s run, one per line (at most ${MAX_EXIT_EVENTS}; * for any event). Never the trigger’s.`}
        value={settings.exit_events}
        onValue={(exit_events) => set({ exit_events })}
      />
      <PathNumber
        path="settings.conversion_window_days"
        label="Conversion window (days)"
        hint={`${range.min}–${range.max}: an exit event this many days or fewer after an e-mail counts as its conversion.`}
        value={settings.conversion_window_days}
        onValue={(days) => set({ conversion_window_days: days as number })}
      />
    </>
  );
}
