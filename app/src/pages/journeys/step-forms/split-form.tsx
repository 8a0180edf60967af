import { JOURNEY_LIMITS } from '../../../../../shared/public/journey-rules.js';
import type { SplitStep } from '../../../../../shared/domain/journeys/definition/types.js';
import { fieldErrorOf } from '../../../data/answer.js';
import { controlPropsOf, FieldError } from '../../../ui/field.js';
import { idOf, NextSelect, PathNumber, PathText, usePanel } from './fields.js';

type Arm = SplitStep['arms'][number];

export const splitPaths = (path: string, step: SplitStep): string[] => [
  `${path}.arms`,
  ...step.arms.flatMap((_, at) => [
    `${path}.arms.${at}.name`,
    `${path}.arms.${at}.percent`,
    `${path}.arms.${at}.next`,
  ]),
];

/** The sum of the arms' percentages, to the cent (a text typed in a percentage counts nothing). */
export const percentSum = (arms: readonly Arm[]): number =>
  Math.round(arms.reduce((sum, arm) => sum + (typeof arm.percent === 'number' ? arm.percent : 0), 0) * 100) / 100;

/** A split step: its arms, each a share of the runs (adding up to 100 %) and a next step. */
export function SplitForm({
  step,
  path,
  onStep,
}: {
  step: SplitStep;
  path: string;
  onStep: (step: SplitStep) => void;
}) {
  const panel = usePanel();
  const arms = step.arms;
  const setArms = (next: Arm[]) => onStep({ ...step, arms: next });
  const setArm = (at: number, changes: Partial<Arm>) =>
    setArms(arms.map((arm, i) => (i === at ? { ...arm, ...changes } : arm)));
  const listId = idOf(`${path}.arms`);
  const error = fieldErrorOf(panel.failure, `${path}.arms`);
  const sum = percentSum(arms);
  return (
    <fieldset class="choice-group" {...controlPropsOf(listId, error, true)}>
      <legend>Arms</legend>
      <p id={`${listId}-hint`} class="hint" aria-live="polite">
        {JOURNEY_LIMITS.armsMin} to {JOURNEY_LIMITS.armsMax} arms whose percentages add up to 100: now {sum} %
        {sum === 100 ? '.' : ' (must be 100).'} A run always takes the same arm.
      </p>
      <ol class="input-list">
        {arms.map((arm, at) => {
          const base = `${path}.arms.${at}`;
          const number = at + 1;
          return (
            <li key={at}>
              <fieldset class="card field-group">
                <legend>
                  Arm {number}: {arm.name || '(no name)'}
                </legend>
                <PathText
                  path={`${base}.name`}
                  label={`Name of arm ${number}`}
                  value={arm.name}
                  onValue={(name) => setArm(at, { name })}
                  maxLength={JOURNEY_LIMITS.nameChars}
                />
                <PathNumber
                  path={`${base}.percent`}
                  label={`Percent of arm ${number}`}
                  decimals
                  value={arm.percent}
                  onValue={(percent) => setArm(at, { percent: percent as number })}
                />
                <NextSelect
                  path={`${base}.next`}
                  label={`Then, for arm ${number}`}
                  self={step.id}
                  value={arm.next}
                  onValue={(next) => setArm(at, { next })}
                />
                {!panel.readOnly && arms.length > JOURNEY_LIMITS.armsMin && (
                  <div class="row-actions">
                    <button
                      type="button"
                      class="small secondary"
                      onClick={() => setArms(arms.filter((_, i) => i !== at))}
                    >
                      Remove arm {number}
                    </button>
                  </div>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      <FieldError id={listId} message={error} />
      {!panel.readOnly && arms.length < JOURNEY_LIMITS.armsMax && (
        <button
          type="button"
          class="small secondary"
          onClick={() =>
            setArms([
              ...arms,
              {
                name: String.fromCharCode(65 + arms.length),
                percent: Math.max(0, 100 - sum) || 0,
                next: arms[arms.length - 1]?.next ?? null,
              },
            ])
          }
        >
          Add an arm
        </button>
      )}
    </fieldset>
  );
}
