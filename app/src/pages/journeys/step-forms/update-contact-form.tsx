import { useState } from 'preact/hooks';
import type { UpdateContactStep } from '../../../../../shared/domain/journeys/definition/types.js';
import { fieldErrorOf } from '../../../data/answer.js';
import { controlPropsOf, FieldError } from '../../../ui/field.js';
import { idOf, NextSelect, PathLines, PathNumber, PathSelect, PathText, usePanel } from './fields.js';

const CONTACT_FIELDS = ['first_name', 'last_name', 'company', 'phone', 'timezone'] as const;
type ContactField = (typeof CONTACT_FIELDS)[number];
const FIELD_NAMES: Record<ContactField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  phone: 'Phone',
  timezone: 'Time zone',
};

type CustomValue = string | number | boolean | null;

export const updateContactPaths = (path: string, step: UpdateContactStep): string[] => [
  ...CONTACT_FIELDS.filter((field) => typeof step.set?.[field] === 'string').map((field) => `${path}.set.${field}`),
  `${path}.set_custom`,
  ...Object.keys(step.set_custom ?? {}).map((name) => `${path}.set_custom.${name}`),
  `${path}.add_tags`,
  `${path}.remove_tags`,
  `${path}.next`,
];

/** The record without its member `key`, or `undefined` when nothing is left (the step leaves the member out). */
function without<T>(record: Record<string, T> | undefined, key: string): Record<string, T> | undefined {
  const { [key]: _, ...rest } = record ?? {};
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** The step with an optional member set, or left out when `value` is undefined. */
function withMember<K extends 'set' | 'set_custom' | 'add_tags' | 'remove_tags'>(
  step: UpdateContactStep,
  key: K,
  value: UpdateContactStep[K] | undefined,
): UpdateContactStep {
  const { [key]: _, ...rest } = step;
  return value === undefined ? (rest as UpdateContactStep) : { ...step, [key]: value };
}

/** An update_contact step: the contact's fields to set or clear, custom fields, tags to add and remove, the next step. */
export function UpdateContactForm(props: {
  step: UpdateContactStep;
  path: string;
  onStep: (step: UpdateContactStep) => void;
}) {
  const { step, path, onStep } = props;
  const panel = usePanel();
  const set = step.set ?? {};
  const setField = (field: ContactField, value: string | null | undefined) =>
    onStep(withMember(step, 'set', value === undefined ? without(set, field) : { ...set, [field]: value }));
  const custom = step.set_custom ?? {};
  const customEntries = Object.entries(custom);
  const customId = idOf(`${path}.set_custom`);
  const customError = fieldErrorOf(panel.failure, `${path}.set_custom`);
  const setCustom = (entries: [string, CustomValue][]) =>
    onStep(withMember(step, 'set_custom', entries.length > 0 ? Object.fromEntries(entries) : undefined));
  return (
    <>
      <fieldset class="choice-group">
        <legend>Contact fields</legend>
        {CONTACT_FIELDS.map((field) => {
          const value = set[field];
          const mode = value === undefined ? 'keep' : value === null ? 'clear' : 'set';
          return (
            <div key={field} class="field-group">
              <PathSelect
                path={`${path}.set.${field}_change`}
                label={FIELD_NAMES[field]}
                value={mode}
                onValue={(chosen) => setField(field, chosen === 'keep' ? undefined : chosen === 'clear' ? null : '')}
              >
                <option value="keep">Leave as it is</option>
                <option value="set">Set to</option>
                <option value="clear">Clear</option>
              </PathSelect>
              {typeof value === 'string' && (
                <PathText
                  path={`${path}.set.${field}`}
                  label={`New ${FIELD_NAMES[field].toLowerCase()}`}
                  hint={field === 'timezone' ? 'An IANA time zone name such as Europe/Paris.' : undefined}
                  value={value}
                  onValue={(text) => setField(field, text)}
                />
              )}
            </div>
          );
        })}
      </fieldset>
      <fieldset class="choice-group" {...controlPropsOf(customId, customError, false)}>
        <legend>Custom fields</legend>
        {customEntries.length === 0 && <p class="hint">None set.</p>}
        <ol class="input-list">
          {customEntries.map(([name, value], at) => (
            <li key={at}>
              <CustomRow
                path={path}
                at={at}
                name={name}
                value={value}
                taken={customEntries.filter((_, i) => i !== at).map(([other]) => other)}
                onName={(renamed) => setCustom(customEntries.map((entry, i) => (i === at ? [renamed, value] : entry)))}
                onValue={(changed) => setCustom(customEntries.map((entry, i) => (i === at ? [name, changed] : entry)))}
                onRemove={() => setCustom(customEntries.filter((_, i) => i !== at))}
              />
            </li>
          ))}
        </ol>
        <FieldError id={customId} message={customError} />
        {!panel.readOnly && (
          <button
            type="button"
            class="small secondary"
            onClick={() => {
              let n = customEntries.length + 1;
              while (`field_${n}` in custom) n += 1;
              setCustom([...customEntries, [`field_${n}`, '']]);
            }}
          >
            Add a custom field
          </button>
        )}
      </fieldset>
      <PathLines
        path={`${path}.add_tags`}
        label="Tags to add"
        hint="One per line."
        value={step.add_tags}
        onValue={(tags) => onStep(withMember(step, 'add_tags', tags))}
      />
      <PathLines
        path={`${path}.remove_tags`}
        label="Tags to remove"
        hint="One per line."
        value={step.remove_tags}
        onValue={(tags) => onStep(withMember(step, 'remove_tags', tags.length > 0 ? tags : undefined))}
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

const kindOf = (value: CustomValue): string =>
  value === null ? 'clear' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';

/** One custom field to set: its name (renamed when typed out, never onto another row's), its kind and value. */
function CustomRow(props: {
  path: string;
  at: number;
  name: string;
  value: CustomValue;
  taken: readonly string[];
  onName: (name: string) => void;
  onValue: (value: CustomValue) => void;
  onRemove: () => void;
}) {
  const { path, at, name, value, taken, onName, onValue, onRemove } = props;
  const panel = usePanel();
  // A name another row has is kept as typed, not applied (the record would merge the two rows).
  const [typed, setTyped] = useState(name);
  const clashing = typed !== name && taken.includes(typed);
  const clash = clashing ? 'Another row sets this field already.' : undefined;
  const number = at + 1;
  // The name is the client's text: the ids go by the row's place.
  const rowId = idOf(`${path}.set_custom_${at}`);
  const valuePath = `${path}.set_custom.${name}`;
  const kind = kindOf(value);
  return (
    <fieldset class="card field-group">
      <legend>Custom field {number}</legend>
      <PathText
        path={`${path}.set_custom_${at}.name`}
        id={`${rowId}-name`}
        label={`Name of custom field ${number}`}
        value={clashing ? typed : name}
        error={clash}
        onValue={(text) => {
          setTyped(text);
          if (!taken.includes(text)) onName(text);
        }}
        maxLength={64}
      />
      <PathSelect
        path={`${path}.set_custom_${at}.kind`}
        id={`${rowId}-kind`}
        label={`Set custom field ${number} to`}
        value={kind}
        onValue={(to) =>
          onValue(
            to === 'clear' ? null : to === 'boolean' ? true : to === 'number' ? 0 : value === null ? '' : String(value),
          )
        }
      >
        <option value="string">A text</option>
        <option value="number">A number</option>
        <option value="boolean">Yes or no</option>
        <option value="clear">Nothing (clear it)</option>
      </PathSelect>
      {kind === 'string' && (
        <PathText
          path={valuePath}
          id={`${rowId}-value`}
          label={`Value of custom field ${number}`}
          value={String(value)}
          onValue={onValue}
          maxLength={1000}
        />
      )}
      {kind === 'number' && (
        <PathNumber
          path={valuePath}
          id={`${rowId}-value`}
          label={`Value of custom field ${number}`}
          decimals
          value={value as number}
          onValue={(v) => onValue(v ?? '')}
        />
      )}
      {kind === 'boolean' && (
        <PathSelect
          path={valuePath}
          id={`${rowId}-value`}
          label={`Value of custom field ${number}`}
          value={String(value)}
          onValue={(v) => onValue(v === 'true')}
        >
          <option value="true">Yes (true)</option>
          <option value="false">No (false)</option>
        </PathSelect>
      )}
      {kind === 'clear' && <FieldError id={`${rowId}-value`} message={fieldErrorOf(panel.failure, valuePath)} />}
      {!panel.readOnly && (
        <div class="row-actions">
          <button type="button" class="small secondary" onClick={onRemove}>
            Remove custom field {number}
          </button>
        </div>
      )}
    </fieldset>
  );
}
