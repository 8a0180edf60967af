import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import { type Column, DataTable } from '../../ui/data-table.js';
import { Form } from '../../ui/form.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FormActions } from '../../ui/form-actions.js';
import { Options, SelectField } from '../../ui/inputs.js';
import { ActionStatus, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { JsonTools } from './journey-editor.js';
import { JourneyOutline } from './journey-outline.js';
import { type Diff, type Journey, jsonOf, type Version, type VersionSummary } from './journey-text.js';

/**
 * The published versions, newest first (each one's definition shown on request), and the diff of two of them, or of
 * one and the draft: the steps added, removed and changed (with the fields that changed), and whether the trigger or
 * the settings did.
 */
export function Versions({ api, journey }: { api: Api; journey: Journey }) {
  const path = { params: { path: { id: String(journey.id) } } };
  const list = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/journeys/{id}/versions', { ...path, signal }), 'Reading the versions'))
        .data.versions,
    [api, journey.id],
  );
  const [shown, setShown] = useState<Version | undefined>();
  const open = useAction(async (version: number) => {
    const answer = await answerOf(
      api.GET('/api/v1/client/journeys/{id}/versions/{version}', {
        params: { path: { id: String(journey.id), version: String(version) } },
      }),
      'Reading the version',
    );
    setShown(answer.data);
  });
  const versions = list.data;

  const columns: Column<VersionSummary>[] = [
    {
      head: 'Version',
      rowHeader: true,
      cell: (row) => `Version ${row.version}${row.version === journey.live_version ? ' (live)' : ''}`,
    },
    { head: 'Published', cell: (row) => <When at={row.published_at} /> },
    {
      head: 'Definition',
      cell: (row) => (
        <button
          type="button"
          class="small secondary"
          aria-label={`Show version ${row.version}`}
          disabled={open.busy}
          onClick={() => open.run(row.version)}
        >
          Show
        </button>
      ),
    },
  ];

  return (
    <section class="page-section" aria-labelledby="jy-versions-title">
      <h2 id="jy-versions-title">Versions</h2>
      <LoadStatus loaded={list} />
      {versions && (
        <>
          <DataTable
            id="jy-versions"
            label="Versions table"
            caption="Published versions, newest first"
            rows={versions}
            rowKey={(row) => row.version}
            columns={columns}
          />
          <ActionStatus action={open} />
          {shown && (
            <section class="card page-section" aria-labelledby="jy-version-title">
              <h3 id="jy-version-title">Version {shown.version}</h3>
              <JourneyOutline
                definition={shown.definition}
                prefix="jy-version"
                title={`Steps of version ${shown.version}`}
              />
              <div class="field">
                <label for="jy-version-json">Version {shown.version} as JSON (read-only)</label>
                <textarea
                  id="jy-version-json"
                  class="code-input"
                  rows={12}
                  value={jsonOf(shown.definition)}
                  readOnly
                  spellcheck={false}
                />
              </div>
              <JsonTools
                text={jsonOf(shown.definition)}
                fileName={`journey-${journey.id}-v${shown.version}.json`}
                target="jy-version-json"
                name={`Copy JSON of version ${shown.version}`}
              />
            </section>
          )}
          <Compare api={api} journey={journey} versions={versions} />
        </>
      )}
    </section>
  );
}

/** Two versions (or a version and the draft) picked, and their diff. */
function Compare({ api, journey, versions }: { api: Api; journey: Journey; versions: readonly VersionSummary[] }) {
  const [from, setFrom] = useState(String(versions[0]?.version ?? ''));
  const [to, setTo] = useState('draft');
  const [diff, setDiff] = useState<(Diff & { from: string; to: string }) | undefined>();
  const compare = useAction(async () => {
    const answer = await answerOf(
      api.GET('/api/v1/client/journeys/{id}/diff', {
        params: { path: { id: String(journey.id) }, query: { from, to } },
      }),
      'Comparing the versions',
    );
    setDiff({ ...answer.data, from, to });
  });
  const nameOf = (side: string) => (side === 'draft' ? 'the draft' : `version ${side}`);

  return (
    <Form class="card page-section" onSubmit={compare.run} failure={compare.failure} aria-labelledby="jy-diff-title">
      <h3 id="jy-diff-title">Compare</h3>
      <div class="filters">
        <SelectField id="jy-diff-from" label="From" name="from" value={from} onValue={setFrom}>
          <Options of={versions} value={(row) => row.version} text={(row) => `Version ${row.version}`} />
        </SelectField>
        <SelectField id="jy-diff-to" label="To" name="to" value={to} onValue={setTo}>
          <option value="draft">The draft</option>
          <Options of={versions} value={(row) => row.version} text={(row) => `Version ${row.version}`} />
        </SelectField>
      </div>
      <FailureAlert />
      <FormActions submit="Compare" busy={compare.busy} busyLabel="Comparing…" />
      {diff && (
        <div class="page-section" aria-live="polite">
          <p>
            From {nameOf(diff.from)} to {nameOf(diff.to)}:{' '}
            {diff.added.length + diff.removed.length + diff.changed.length === 0 &&
            !diff.trigger_changed &&
            !diff.settings_changed
              ? 'nothing changed.'
              : [diff.trigger_changed ? 'the trigger changed' : '', diff.settings_changed ? 'the settings changed' : '']
                  .filter(Boolean)
                  .join(', ') || 'the steps below.'}
          </p>
          <dl class="figures diff">
            <dt>Added</dt>
            <dd>{stepList(diff.added)}</dd>
            <dt>Removed</dt>
            <dd>{stepList(diff.removed)}</dd>
            <dt>Changed</dt>
            <dd>
              {diff.changed.length === 0 ? (
                'None'
              ) : (
                <ul>
                  {diff.changed.map((row) => (
                    <li key={row.step_id}>
                      <code>{row.step_id}</code>: {row.fields.join(', ')}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
        </div>
      )}
    </Form>
  );
}

const stepList = (steps: readonly string[]) =>
  steps.length === 0 ? (
    'None'
  ) : (
    <ul>
      {steps.map((step) => (
        <li key={step}>
          <code>{step}</code>
        </li>
      ))}
    </ul>
  );
