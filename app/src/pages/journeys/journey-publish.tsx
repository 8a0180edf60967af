import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { type Column, DataTable } from '../../ui/data-table.js';
import { FieldGroup } from '../../ui/field-group.js';
import { CheckField, Options, SelectField } from '../../ui/inputs.js';
import { ActionStatus } from '../../ui/status.js';
import { readJson } from './journey-json.js';
import type { Journey, StepMove, Validation } from './journey-text.js';

type Impact = Validation['impact'][number];

const CHANGE_TEXT: Record<Impact['change'], string> = {
  removed: 'Removed',
  changed: 'Changed',
  unchanged: 'Unchanged',
};

const IMPACT_COLUMNS: Column<Impact>[] = [
  { head: 'Step', rowHeader: true, cell: (row) => <code>{row.step_id}</code> },
  { head: 'Change', cell: (row) => CHANGE_TEXT[row.change] },
  {
    head: 'Contacts there',
    cell: (row) => (row.waiting === null || row.waiting === undefined ? 'Not counted yet' : row.waiting),
  },
];

/** The validation's verdict and, against the live version, each step's change and the contacts it holds. */
export function ValidationResult({ validation, current }: { validation: Validation; current: boolean }) {
  const touched = validation.impact.filter((row) => row.change !== 'unchanged');
  return (
    <div class="page-section">
      {!current && <p class="hint">The text changed since: validate again to publish it.</p>}
      {validation.impact.length > 0 && (
        <DataTable
          id="jy-impact"
          label="Impact table"
          caption={`Against the live version: ${touched.length === 0 ? 'no step changes' : `${touched.length} steps change or go`}`}
          rows={validation.impact}
          rowKey={(row) => row.step_id}
          columns={IMPACT_COLUMNS}
        />
      )}
    </div>
  );
}

/** The step ids of the validated text, for a move's target. */
function stepIdsOf(text: string): string[] {
  const value = readJson(text).value as { steps?: { id?: unknown }[] } | undefined;
  return (value?.steps ?? []).map((step) => step.id).filter((id): id is string => typeof id === 'string');
}

type Choice = { action: '' | 'finish_old' | 'move_to' | 'end'; step_id: string };

/**
 * Publish: for each step the draft removes, what happens to the runs sitting there (finish on the old version, move to
 * a step of the new one, or end), then a confirmation. With a copy of a system journey, whether to disable the
 * workflow it came from in the same change (both running would send twice).
 */
export function Publish(props: {
  api: Api;
  journey: Journey;
  validation: Validation & { text: string };
  draftVersion: number;
  /** Told what to say (the parent says it: this part goes once the draft is published). */
  onPublished: (said: string) => void;
}) {
  const { api, journey, validation, draftVersion, onPublished } = props;
  const removed = validation.impact.filter((row) => row.change === 'removed').map((row) => row.step_id);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [disableSource, setDisableSource] = useState(false);
  const targets = stepIdsOf(validation.text);
  const next = (journey.live_version ?? 0) + 1;

  const publish = useAction(async () => {
    const moves: Record<string, StepMove> = {};
    for (const step of removed) {
      const choice = choices[step];
      if (!choice?.action) continue;
      moves[step] =
        choice.action === 'move_to' ? { action: 'move_to', step_id: choice.step_id } : { action: choice.action };
    }
    const body = {
      draft_version: draftVersion,
      ...(removed.length > 0 ? { moves } : {}),
      ...(journey.copied_from ? { disable_source_workflow: disableSource } : {}),
    };
    const answer = await answerOf(
      api.POST('/api/v1/client/journeys/{id}/publish', { params: { path: { id: String(journey.id) } }, body }),
      'Publishing the journey',
    );
    onPublished(
      `Version ${answer.data.version} is live: new runs start on it, and runs inside follow it at their next step.`,
    );
  });
  const choose = (step: string, change: Partial<Choice>) =>
    setChoices({ ...choices, [step]: { action: '', step_id: targets[0] ?? '', ...choices[step], ...change } });
  const shownAt = [
    ...removed.flatMap((step) => [`moves.${step}`, `moves.${step}.step_id`]),
    ...(journey.copied_from ? ['disable_source_workflow'] : []),
  ];

  return (
    <section class="card page-section" aria-labelledby="jy-publish-card-title">
      <h3 id="jy-publish-card-title">Publish as version {next}</h3>
      {removed.length > 0 && (
        <FieldGroup legend="Runs at the steps this version removes">
          {removed.map((step) => {
            const choice = choices[step];
            return (
              <div key={step}>
                <SelectField
                  id={`jy-move-${step}`}
                  label={
                    <>
                      Runs at <code>{step}</code>
                    </>
                  }
                  name={`moves.${step}`}
                  failure={publish.failure}
                  value={choice?.action ?? ''}
                  onValue={(action) => choose(step, { action: action as Choice['action'] })}
                >
                  <option value="">Choose…</option>
                  <option value="finish_old">Finish on the old version</option>
                  <option value="move_to">Move to a step of this version</option>
                  <option value="end">End their runs</option>
                </SelectField>
                {choice?.action === 'move_to' && (
                  <SelectField
                    id={`jy-move-${step}-to`}
                    label={
                      <>
                        Move runs at <code>{step}</code> to
                      </>
                    }
                    name={`moves.${step}.step_id`}
                    failure={publish.failure}
                    value={choice.step_id}
                    onValue={(stepId) => choose(step, { step_id: stepId })}
                  >
                    <Options of={targets} value={(id) => id} text={(id) => id} />
                  </SelectField>
                )}
              </div>
            );
          })}
        </FieldGroup>
      )}
      {journey.copied_from ? (
        <CheckField
          id="jy-disable-source"
          label={`Disable workflow #${journey.copied_from} in the same change (it would otherwise start on the same events)`}
          name="disable_source_workflow"
          failure={publish.failure}
          checked={disableSource}
          onChecked={setDisableSource}
        />
      ) : null}
      <div class="row-actions">
        <ConfirmButton
          label="Publish"
          name={`Publish as version ${next}`}
          confirm={`Publish as version ${next}? New runs start on it at once.`}
          busy={publish.busy}
          onConfirm={() => publish.run()}
        />
      </div>
      <ActionStatus action={publish} shownAt={shownAt} />
    </section>
  );
}
