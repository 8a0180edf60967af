import { JOURNEY_LIMITS } from '../../../../../shared/public/journey-rules.js';
import type { BranchStep } from '../../../../../shared/domain/journeys/definition/types.js';
import { fieldErrorOf } from '../../../data/answer.js';
import { controlPropsOf, FieldError } from '../../../ui/field.js';
import { ConditionList, conditionPathsOf } from '../condition-list.js';
import { sendStepsOf } from '../journey-draft-edit.js';
import { idOf, NextSelect, PathText, usePanel } from './fields.js';

type Case = BranchStep['branches'][number];

export const branchPaths = (path: string, step: BranchStep): string[] => [
  `${path}.branches`,
  ...step.branches.flatMap((_, at) => [
    `${path}.branches.${at}.name`,
    ...conditionPathsOf(`${path}.branches.${at}.conditions`, step.branches[at]?.conditions),
    `${path}.branches.${at}.next`,
  ]),
  `${path}.otherwise`,
];

/** The list with its items at `a` and `b` swapped. */
const swapped = <T,>(list: readonly T[], a: number, b: number): T[] =>
  list.map((item, at) => (at === a ? (list[b] as T) : at === b ? (list[a] as T) : item));

/**
 * A branch step: its cases in the order they are tried (the first whose conditions all hold is taken), each with its
 * conditions (engagement of an earlier send among them) and next step; then where the others go.
 */
export function BranchForm({
  step,
  path,
  onStep,
}: {
  step: BranchStep;
  path: string;
  onStep: (step: BranchStep) => void;
}) {
  const panel = usePanel();
  const { definition, readOnly } = panel;
  const cases = step.branches;
  const setCases = (branches: Case[]) => onStep({ ...step, branches });
  const setCase = (at: number, changes: Partial<Case>) =>
    setCases(cases.map((one, i) => (i === at ? { ...one, ...changes } : one)));
  const listId = idOf(`${path}.branches`);
  const error = fieldErrorOf(panel.failure, `${path}.branches`);
  // Only a send step every path to this branch passes may be read; the API says which (422 reference) at the condition.
  const sendSteps = sendStepsOf(definition, step.id);
  return (
    <>
      <fieldset class="choice-group" {...controlPropsOf(listId, error, true)}>
        <legend>Cases, tried in order</legend>
        <p id={`${listId}-hint`} class="hint">
          The first case whose conditions all hold is taken. Engagement counts people only: privacy proxies and link
          scanners never do.
        </p>
        <ol class="input-list">
          {cases.map((one, at) => {
            const base = `${path}.branches.${at}`;
            const number = at + 1;
            return (
              <li key={at}>
                <fieldset class="card field-group">
                  <legend>
                    Case {number}: {one.name || '(no name)'}
                  </legend>
                  <PathText
                    path={`${base}.name`}
                    label={`Name of case ${number}`}
                    value={one.name}
                    onValue={(name) => setCase(at, { name })}
                    maxLength={JOURNEY_LIMITS.nameChars}
                  />
                  <NextSelect
                    path={`${base}.next`}
                    label={`Then, in case ${number}`}
                    self={step.id}
                    value={one.next}
                    onValue={(next) => setCase(at, { next })}
                  />
                  <ConditionList
                    path={`${base}.conditions`}
                    legend={`Conditions of case ${number}`}
                    conditions={one.conditions}
                    sendSteps={sendSteps}
                    onChange={(conditions) => setCase(at, { conditions })}
                  />
                  {!readOnly && (
                    <div class="row-actions">
                      {at > 0 && (
                        <button
                          type="button"
                          class="small secondary"
                          onClick={() => setCases(swapped(cases, at, at - 1))}
                        >
                          Move case {number} up
                        </button>
                      )}
                      {at < cases.length - 1 && (
                        <button
                          type="button"
                          class="small secondary"
                          onClick={() => setCases(swapped(cases, at, at + 1))}
                        >
                          Move case {number} down
                        </button>
                      )}
                      {cases.length > 1 && (
                        <button
                          type="button"
                          class="small secondary"
                          onClick={() => setCases(cases.filter((_, i) => i !== at))}
                        >
                          Remove case {number}
                        </button>
                      )}
                    </div>
                  )}
                </fieldset>
              </li>
            );
          })}
        </ol>
        <FieldError id={listId} message={error} />
        {!readOnly && cases.length < JOURNEY_LIMITS.branches && (
          <button
            type="button"
            class="small secondary"
            onClick={() =>
              setCases([...cases, { name: `Case ${cases.length + 1}`, conditions: [], next: step.otherwise }])
            }
          >
            Add a case
          </button>
        )}
      </fieldset>
      <NextSelect
        path={`${path}.otherwise`}
        label="Otherwise"
        hint="When no case holds."
        self={step.id}
        value={step.otherwise}
        onValue={(otherwise) => onStep({ ...step, otherwise })}
      />
    </>
  );
}
