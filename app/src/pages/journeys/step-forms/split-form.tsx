import { JOURNEY_LIMITS, SPLIT_WINNER_METRICS } from '../../../../../shared/public/journey-rules.js';
import type {
  SplitStep,
  SplitWinnerMetric,
  SplitWinnerRule,
} from '../../../../../shared/domain/journeys/definition/types.js';
import { fieldErrorOf } from '../../../data/answer.js';
import { controlPropsOf, FieldError } from '../../../ui/field.js';
import { idOf, NextSelect, PathCheck, PathNumber, PathSelect, PathText, usePanel } from './fields.js';

type Arm = SplitStep['arms'][number];

export const splitPaths = (path: string, step: SplitStep): string[] => [
  `${path}.arms`,
  ...step.arms.flatMap((_, at) => [`${path}.arms.${at}.name`, `${path}.arms.${at}.percent`, `${path}.arms.${at}.next`]),
  `${path}.winner`,
  ...(step.winner ? [`${path}.winner.metric`, `${path}.winner.min_sends_per_arm`, `${path}.winner.min_hours`] : []),
];

const METRIC_NAMES: Record<SplitWinnerMetric, string> = {
  human_opens: 'Opens by people',
  human_clicks: 'Clicks by people',
  conversions: 'Conversions (an exit event in the conversion window)',
};

/** What a new automatic winner starts as: opens by people, after 100 e-mails an arm, no wait. */
const NEW_WINNER: SplitWinnerRule = { metric: 'human_opens', min_sends_per_arm: 100 };

/** The sum of the arms' percentages, to the cent (a text typed in a percentage counts nothing). */
export const percentSum = (arms: readonly Arm[]): number =>
  Math.round(arms.reduce((sum, arm) => sum + (typeof arm.percent === 'number' ? arm.percent : 0), 0) * 100) / 100;

/** A split step: its arms, each a share of the runs (adding up to 100 %) and a next step; its automatic winner. */
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
  const winner = step.winner;
  const setWinner = (rule: SplitWinnerRule | undefined) => {
    const { winner: _, ...rest } = step;
    onStep(rule ? { ...step, winner: rule } : rest);
  };
  return (
    <>
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
      <PathCheck
        path={`${path}.winner`}
        label="Choose a winner automatically"
        hint="Once every arm’s runs were sent enough e-mails, the arm with the best rate takes every run reaching the split after. Every arm must lead to a send step."
        checked={winner !== undefined}
        onChecked={(on) => setWinner(on ? NEW_WINNER : undefined)}
      />
      {winner && (
        <>
          <PathSelect
            path={`${path}.winner.metric`}
            label="The best rate of"
            value={winner.metric}
            onValue={(metric) => setWinner({ ...winner, metric: metric as SplitWinnerMetric })}
          >
            {SPLIT_WINNER_METRICS.map((metric) => (
              <option key={metric} value={metric}>
                {METRIC_NAMES[metric]}
              </option>
            ))}
          </PathSelect>
          <PathNumber
            path={`${path}.winner.min_sends_per_arm`}
            label="E-mails sent per arm first"
            hint={`${JOURNEY_LIMITS.winnerMinSends.min} to ${JOURNEY_LIMITS.winnerMinSends.max}.`}
            value={winner.min_sends_per_arm}
            onValue={(sends) => setWinner({ ...winner, min_sends_per_arm: sends as number })}
          />
          <PathNumber
            path={`${path}.winner.min_hours`}
            label="Hours at least (optional)"
            hint={`${JOURNEY_LIMITS.winnerMinHours.min} to ${JOURNEY_LIMITS.winnerMinHours.max} from the split’s first run, so opens and clicks can come in. Empty: 0.`}
            optional
            value={winner.min_hours}
            onValue={(hours) => {
              const { min_hours: _, ...rest } = winner;
              setWinner(hours === undefined ? rest : { ...winner, min_hours: hours as number });
            }}
          />
        </>
      )}
    </>
  );
}
