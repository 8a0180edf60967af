import { useEffect, useErrorBoundary, useState } from 'preact/hooks';
import { JOURNEY_LIMITS, STEP_ID_PATTERN } from '../../../../shared/public/journey-rules.js';
import type { StepType } from '../../../../shared/domain/journeys/definition/types.js';
import type { ErrorItem } from '../../api/client.js';
import type { Failure } from '../../data/answer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { Field } from '../../ui/field.js';
import { FieldGroup } from '../../ui/field-group.js';
import {
  addStepAfter,
  edgeKeysOf,
  removeStep,
  renameStep,
  STEP_KIND_NAMES,
  STEP_KINDS,
  setStep,
} from './journey-draft-edit.js';
import type { JourneyDefinition, JourneyIssue, JourneyStep } from './journey-text.js';
import { BranchForm, branchPaths } from './step-forms/branch-form.js';
import { idOf, PanelContext, type PanelState, PathText } from './step-forms/fields.js';
import { SendForm, sendPaths } from './step-forms/send-form.js';
import { SettingsForm, settingsPaths } from './step-forms/settings-form.js';
import { SplitForm, splitPaths } from './step-forms/split-form.js';
import { TriggerForm, triggerPaths } from './step-forms/trigger-form.js';
import { UpdateContactForm, updateContactPaths } from './step-forms/update-contact-form.js';
import {
  WaitForEventForm,
  WaitForm,
  WaitUntilForm,
  waitForEventPaths,
  waitPaths,
  waitUntilPaths,
} from './step-forms/wait-forms.js';

/** What the panel shows: the trigger, the journey's settings, or one step by its id. */
export type Selection = { kind: 'trigger' } | { kind: 'settings' } | { kind: 'step'; id: string };

export const PANEL_TITLE_ID = 'jy-panel-title';

/** The paths of a step kind's fields below `path` (`steps.<i>`), the id and name first. */
function stepPaths(step: JourneyStep, path: string): string[] {
  const common = [`${path}.id`, `${path}.name`];
  switch (step.type) {
    case 'send':
      return [...common, ...sendPaths(path, step)];
    case 'wait':
      return [...common, ...waitPaths(path)];
    case 'wait_until':
      return [...common, ...waitUntilPaths(path)];
    case 'wait_for_event':
      return [...common, ...waitForEventPaths(path, step)];
    case 'branch':
      return [...common, ...branchPaths(path, step)];
    case 'split':
      return [...common, ...splitPaths(path, step)];
    case 'update_contact':
      return [...common, ...updateContactPaths(path, step)];
    default:
      return common;
  }
}

/** The JSON paths the selection's issues sit under (`steps.3`; the trigger's and the entry; the settings'). */
function scopesOf(selection: Selection, definition: JourneyDefinition): string[] {
  if (selection.kind === 'trigger') return ['trigger', 'entry'];
  if (selection.kind === 'settings') return ['settings'];
  const index = definition.steps.findIndex((step) => step.id === selection.id);
  return index < 0 ? [] : [`steps.${index}`];
}

/** The paths of the fields the panel draws for the selection. */
export function fieldPathsOf(selection: Selection, definition: JourneyDefinition): string[] {
  if (selection.kind === 'trigger') return triggerPaths(definition.trigger);
  if (selection.kind === 'settings') return settingsPaths(definition.settings);
  const index = definition.steps.findIndex((step) => step.id === selection.id);
  const step = definition.steps[index];
  return step ? stepPaths(step, `steps.${index}`) : [];
}

const within = (path: string, scope: string) => path === scope || path.startsWith(`${scope}.`);

/**
 * The selection's issues, each at the field that shows it (the deepest field whose path holds the issue's:
 * `steps.3.weekdays.1` shows at the weekdays) or, when no field does, at the panel's top.
 */
export function placeIssues(
  issues: readonly JourneyIssue[],
  selection: Selection,
  definition: JourneyDefinition,
): { atFields: ErrorItem[]; atTop: JourneyIssue[] } {
  const scopes = scopesOf(selection, definition);
  const paths = fieldPathsOf(selection, definition);
  const atFields: ErrorItem[] = [];
  const atTop: JourneyIssue[] = [];
  for (const issue of issues) {
    if (!scopes.some((scope) => within(issue.path, scope))) continue;
    const owner = paths
      .filter((path) => within(issue.path, path))
      .reduce<string | undefined>(
        (deepest, path) => (!deepest || path.length > deepest.length ? path : deepest),
        undefined,
      );
    if (owner) atFields.push({ key: owner, condition: issue.condition, error: issue.error });
    else atTop.push(issue);
  }
  return { atFields, atTop };
}

/** "2 issues here, shown at their fields; this one has none:" — how many, and where they show. */
export function issuesSummary(count: number, atTop: number): string {
  const many = count > 1;
  const here = many ? `${count} issues here` : 'One issue here';
  if (atTop === 0) return `${here}, shown at ${many ? 'their fields' : 'its field'}.`;
  if (atTop === count) return `${here}:`;
  const atFields = count - atTop;
  return `${here}: ${atFields} shown at ${atFields > 1 ? 'their fields' : 'its field'}, ${atTop > 1 ? 'these have' : 'this one has'} none:`;
}

/** The panel's heading: the step by its name (or id) and kind, or the trigger, or the settings. */
function titleOf(selection: Selection, step: JourneyStep | undefined): string {
  if (selection.kind === 'trigger') return 'Trigger: what starts a run';
  if (selection.kind === 'settings') return 'Settings of the journey';
  if (!step) return `No step “${selection.id}”`;
  return `${step.name ? `${step.name} (${step.id})` : `Step “${step.id}”`}: ${STEP_KIND_NAMES[step.type] ?? step.type}`;
}

type PanelProps = {
  definition: JourneyDefinition;
  selection: Selection;
  issues: readonly JourneyIssue[];
  templates: readonly { id: number; name: string }[];
  topics: readonly { id: number; name: string }[];
  segments: readonly { id: number; name: string }[];
  readOnly: boolean;
  onChange: (next: JourneyDefinition) => void;
  onSelect: (selection: Selection) => void;
  onClose: () => void;
};

/** The heading's words, whatever the draft holds (a half-typed draft may have anything where a step should be). */
function safeTitleOf(selection: Selection, definition: JourneyDefinition): string {
  try {
    const step = selection.kind === 'step' ? definition.steps.find((one) => one.id === selection.id) : undefined;
    return titleOf(selection, step);
  } catch {
    return selection.kind === 'step' ? `Step “${selection.id}”` : titleOf(selection, undefined);
  }
}

/**
 * The settings of what is selected in the drawn journey: the trigger, the settings, or one step with a form of its
 * kind. Each change goes to `onChange` as a whole new definition (the page turns it into the draft's JSON and saves as
 * any edit); the API's issues show at their field, those no field shows at the top. Escape closes it. Read-only (a
 * system journey, a role that reads) draws the same fields disabled and offers no change. A draft whose JSON is not
 * in the shape a form reads (a member missing or of another type, typed by hand) shows a note instead of the form,
 * and the form again once the draft changes.
 */
export function StepPanel(props: PanelProps) {
  const { definition, selection, onClose } = props;
  const [broken, retry] = useErrorBoundary();
  // A new draft or selection is what may mend the form: try it again then.
  useEffect(() => {
    if (broken) retry();
  }, [definition, selection]);
  return (
    <section
      class="card step-panel"
      aria-labelledby={PANEL_TITLE_ID}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div class="page-head">
        <h2 id={PANEL_TITLE_ID} tabIndex={-1}>
          {safeTitleOf(selection, definition)}
        </h2>
        <button type="button" class="small secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {broken ? (
        <p class="hint" id="jy-panel-unreadable">
          The draft’s JSON does not have the shape this form reads here (a member missing or of another type). Fix it in
          the JSON, or save the draft to see the API’s issues at their place.
        </p>
      ) : (
        <PanelBody {...props} />
      )}
    </section>
  );
}

/** The panel's issues and form, inside the frame that catches a draft of the wrong shape. */
function PanelBody(props: PanelProps) {
  const { definition, selection, issues, templates, topics, segments, readOnly, onChange, onSelect, onClose } = props;
  const index = selection.kind === 'step' ? definition.steps.findIndex((step) => step.id === selection.id) : -1;
  const step = definition.steps[index];
  const { atFields, atTop } = placeIssues(issues, selection, definition);
  const failure: Failure | undefined =
    atFields.length > 0 ? { message: 'This part has issues', errors: atFields } : undefined;
  const panel: PanelState = { failure, readOnly, definition, templates, topics, segments };
  const change = (next: JourneyDefinition) => {
    if (!readOnly) onChange(next);
  };
  const path = `steps.${index}`;
  const onStep = (next: JourneyStep) => change(setStep(definition, next));
  const count = atFields.length + atTop.length;

  return (
    <>
      {readOnly && <p class="hint">Read-only: the fields show the journey as it is.</p>}
      {count > 0 && (
        <div class="error alert" id="jy-panel-issues">
          <p>{issuesSummary(count, atTop.length)}</p>
          {atTop.length > 0 && (
            <ul>
              {atTop.map((issue, at) => (
                <li key={at}>
                  <code>{issue.path || '(the journey)'}</code> {issue.error}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {/* Another selection starts its fields afresh (a unit chosen, a text being typed); a rename keeps them. */}
      <PanelContext.Provider value={panel} key={selection.kind === 'step' ? `step-${index}` : selection.kind}>
        {selection.kind === 'trigger' && (
          <>
            <FieldGroup legend="Trigger">
              <TriggerForm onChange={change} />
            </FieldGroup>
            {!readOnly && definition.steps.length < JOURNEY_LIMITS.steps && (
              <AddStep
                label="Add a step first"
                edges={[{ key: 'entry', label: 'Before the first step' }]}
                onAdd={(edge, kind) => {
                  const added = addStepAfter(definition, 'trigger', edge, kind, { templateId: templates[0]?.id });
                  if (added.id === null) return;
                  onChange(added.definition);
                  onSelect({ kind: 'step', id: added.id });
                }}
              />
            )}
          </>
        )}
        {selection.kind === 'settings' && (
          <FieldGroup legend="Settings">
            <SettingsForm onChange={change} />
          </FieldGroup>
        )}
        {selection.kind === 'step' && !step && (
          <p class="hint">The draft has no step of this id any more: choose another step in the journey.</p>
        )}
        {step && (
          <>
            <FieldGroup legend="Step">
              <StepIdField
                key={step.id}
                path={path}
                step={step}
                taken={definition.steps.filter((one) => one.id !== step.id).map((one) => one.id)}
                onRename={(to) => {
                  change(renameStep(definition, step.id, to));
                  onSelect({ kind: 'step', id: to });
                }}
              />
              <PathText
                path={`${path}.name`}
                label="Label (optional)"
                hint="For people: shown on the drawing instead of the id."
                value={step.name}
                maxLength={JOURNEY_LIMITS.nameChars}
                onValue={(name) => {
                  const { name: _, ...rest } = step;
                  onStep(name === '' ? (rest as JourneyStep) : { ...step, name });
                }}
              />
            </FieldGroup>
            <FieldGroup legend={STEP_KIND_NAMES[step.type] ?? step.type}>
              <KindForm step={step} path={path} onStep={onStep} />
            </FieldGroup>
            {!readOnly && (
              <div class="step-panel-actions">
                {edgeKeysOf(step).length > 0 && definition.steps.length < JOURNEY_LIMITS.steps && (
                  <AddStep
                    label="Add a step after"
                    edges={edgeKeysOf(step)}
                    onAdd={(edge, kind) => {
                      const added = addStepAfter(definition, step.id, edge, kind, { templateId: templates[0]?.id });
                      if (added.id === null) return;
                      onChange(added.definition);
                      onSelect({ kind: 'step', id: added.id });
                    }}
                  />
                )}
                {definition.steps.length > 1 && (
                  <div class="row-actions">
                    <ConfirmButton
                      label="Delete step"
                      name={`Delete step ${step.id}`}
                      confirm={`Delete “${step.id}”? The steps leading to it will lead where it led (or end the run).`}
                      danger
                      onConfirm={() => {
                        onChange(removeStep(definition, step.id));
                        onClose();
                      }}
                    />
                  </div>
                )}
              </div>
            )}
          </>
        )}
      </PanelContext.Provider>
    </>
  );
}

function KindForm({ step, path, onStep }: { step: JourneyStep; path: string; onStep: (step: JourneyStep) => void }) {
  switch (step.type) {
    case 'send':
      return <SendForm step={step} path={path} onStep={onStep} />;
    case 'wait':
      return <WaitForm step={step} path={path} onStep={onStep} />;
    case 'wait_until':
      return <WaitUntilForm step={step} path={path} onStep={onStep} />;
    case 'wait_for_event':
      return <WaitForEventForm step={step} path={path} onStep={onStep} />;
    case 'branch':
      return <BranchForm step={step} path={path} onStep={onStep} />;
    case 'split':
      return <SplitForm step={step} path={path} onStep={onStep} />;
    case 'update_contact':
      return <UpdateContactForm step={step} path={path} onStep={onStep} />;
    case 'exit':
      return <p class="hint">The run ends here (reason exit_step). An exit step has nothing more to set.</p>;
    default:
      return <p class="hint">A step of a kind this dashboard does not know: edit it in the JSON.</p>;
  }
}

/**
 * The step's id: renamed when the typed id is committed (Enter, or leaving the field), every reference following;
 * an id that is not a step id, or another step's, stays typed with the reason and renames nothing.
 */
function StepIdField(props: {
  path: string;
  step: JourneyStep;
  taken: readonly string[];
  onRename: (to: string) => void;
}) {
  const { path, step, taken, onRename } = props;
  const [typed, setTyped] = useState(step.id);
  const refusal =
    typed === step.id
      ? undefined
      : !STEP_ID_PATTERN.test(typed)
        ? `Must be a step id: a lower-case letter, then lower-case letters, digits or _ (at most ${JOURNEY_LIMITS.stepIdChars} characters).`
        : taken.includes(typed)
          ? 'Another step has this id.'
          : undefined;
  return (
    <PathText
      path={`${path}.id`}
      label="Id"
      hint="Seen in the API, the executions and the counts. Renaming it updates every step leading here."
      value={typed}
      error={refusal}
      maxLength={JOURNEY_LIMITS.stepIdChars}
      onValue={setTyped}
      onCommit={(value) => {
        if (value !== step.id && STEP_ID_PATTERN.test(value) && !taken.includes(value)) onRename(value);
      }}
    />
  );
}

/** "Add a step after": which edge (when the step has several), the new step's kind, and the button. */
function AddStep(props: {
  label: string;
  edges: readonly { key: string; label: string }[];
  onAdd: (edge: string, kind: StepType) => void;
}) {
  const { label, edges, onAdd } = props;
  const [edge, setEdge] = useState(edges[0]?.key ?? 'next');
  const [kind, setKind] = useState<StepType>('send');
  const chosenEdge = edges.some((one) => one.key === edge) ? edge : (edges[0]?.key ?? 'next');
  return (
    <fieldset class="card field-group add-step">
      <legend>{label}</legend>
      {edges.length > 1 && (
        <Field id="jy-panel-add-edge" label="On the way">
          {(control) => (
            <select {...control} value={chosenEdge} onChange={(event) => setEdge(event.currentTarget.value)}>
              {edges.map((one) => (
                <option key={one.key} value={one.key}>
                  {one.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field id="jy-panel-add-kind" label="Kind of the new step">
        {(control) => (
          <select {...control} value={kind} onChange={(event) => setKind(event.currentTarget.value as StepType)}>
            {STEP_KINDS.map((one) => (
              <option key={one} value={one}>
                {STEP_KIND_NAMES[one]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="row-actions">
        <button type="button" onClick={() => onAdd(chosenEdge, kind)}>
          {label}
        </button>
      </div>
    </fieldset>
  );
}

export { idOf as panelFieldId };
