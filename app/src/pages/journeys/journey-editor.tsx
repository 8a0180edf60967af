import { useMemo, useRef, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { CopyButton } from '../../ui/copy-button.js';
import { Field } from '../../ui/field.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { ActionStatus, Done } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { rangeOfPath, readJson, type SyntaxProblem, selectInTextarea, type TextRange } from './journey-json.js';
import { COUNTS_REREAD_MS, type LiveCounts } from './journey-counts.js';
import { FlowView, type ViewOfJourney, ViewPanel, ViewTabs } from './journey-flow.js';
import { focusStep, JourneyOutline } from './journey-outline.js';
import { Publish, ValidationResult } from './journey-publish.js';
import { type Journey, type JourneyDefinition, type JourneyIssue, jsonOf, type Validation } from './journey-text.js';

const EDITOR_ID = 'jy-draft';

/** Saves `text` as a file the browser downloads (a Blob of this page: nothing leaves for another origin). */
function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** Export (a download of the JSON shown) and Copy, beside a JSON text whose element is `target`. */
export function JsonTools(props: {
  text: string;
  fileName: string;
  target?: string;
  /** The Copy button's accessible name where "Copy JSON" alone is ambiguous (it contains those words). */
  name?: string;
}) {
  const { text, fileName, target = 'jy-json', name } = props;
  return (
    <div class="row-actions">
      <button type="button" class="secondary" onClick={() => download(text, fileName)}>
        Export {fileName}
      </button>
      <CopyButton value={text} target={target} name={name} label="Copy JSON" />
    </div>
  );
}

/**
 * A client journey's draft, in two views of the same text: the drawn flow with the panel of the step selected (each
 * change written into the text), and the JSON in a textarea (saved with the draft_version it was read at, so a change made
 * meanwhile elsewhere is refused rather than overwritten), import and export, the issues found (each taking the
 * focus to its place in the text), the steps as an outline of what is typed, then validate and publish.
 */
export function DraftWorkspace(props: {
  api: Api;
  journey: Journey;
  writes: boolean;
  manages: boolean;
  /** What the last publish said: the parent keeps it, as this part starts again on the new version. */
  published: string;
  onPublished: (said: string) => void;
  /** The live version's counts by step id, shown on the steps of the same id, and when they were read. */
  counts?: LiveCounts | undefined;
}) {
  const { api, journey, writes, manages, published, onPublished, counts } = props;
  const path = { params: { path: { id: String(journey.id) } } };
  const [text, setText] = useState(() => jsonOf(journey.draft));
  const [saved, setSaved] = useState(() => ({ text: jsonOf(journey.draft), draftVersion: journey.draft_version }));
  const [issues, setIssues] = useState<readonly JourneyIssue[]>(journey.issues);
  const [syntax, setSyntax] = useState<readonly SyntaxProblem[]>([]);
  const [validation, setValidation] = useState<(Validation & { text: string }) | undefined>();
  const [view, setView] = useState<ViewOfJourney>('flow');
  const editor = useRef<HTMLTextAreaElement>(null);
  const read = useMemo(() => readJson(text), [text]);
  const changed = text !== saved.text;
  // The flow draws JSON only: a text that is not JSON shows in the JSON view, with the places to fix.
  const flowNote =
    read.problems.length > 0
      ? `The flow needs valid JSON: fix the ${read.problems.length === 1 ? 'place' : `${read.problems.length} places`} listed in the JSON view first.`
      : undefined;
  const shown: ViewOfJourney = flowNote ? 'json' : view;

  /** PUT …/draft with the version read: the saved text, its new version and its issues. */
  async function saveDraft(): Promise<readonly JourneyIssue[]> {
    const now = readJson(text);
    setSyntax(now.problems);
    if (now.problems.length > 0) {
      const first = now.problems[0] as SyntaxProblem;
      throw new Error(
        `The text is not JSON (${now.problems.length === 1 ? 'one place' : `${now.problems.length} places`}, the first at line ${first.line}, column ${first.column}): nothing was saved.`,
      );
    }
    if (!now.value || typeof now.value !== 'object' || Array.isArray(now.value)) {
      throw new Error(
        'A journey is a JSON object ({ "trigger": …, "entry": …, "steps": […], "settings": … }): nothing was saved.',
      );
    }
    const body = { definition: now.value as Record<string, unknown>, draft_version: saved.draftVersion };
    const answer = await answerOf(api.PUT('/api/v1/client/journeys/{id}/draft', { ...path, body }), 'Saving the draft');
    setSaved({ text, draftVersion: answer.data.draft_version });
    setIssues(answer.data.issues);
    return answer.data.issues;
  }

  const save = useAction(async () => {
    imported.reset();
    const found = await saveDraft();
    return found.length === 0
      ? 'Draft saved. No issue found: validate it to publish.'
      : `Draft saved with ${found.length === 1 ? 'one issue' : `${found.length} issues`}: see below.`;
  });
  const validate = useAction(async () => {
    if (changed) await saveDraft();
    const answer = await answerOf(api.POST('/api/v1/client/journeys/{id}/validate', path), 'Validating the draft');
    setIssues(answer.data.issues);
    const { valid, issues: found, impact } = answer.data;
    setValidation({ valid, issues: found, impact, text });
    return answer.data.valid
      ? 'The draft is valid: see what publishing it does to the runs inside, then publish.'
      : `The draft has ${answer.data.issues.length === 1 ? 'one issue' : `${answer.data.issues.length} issues`}: fix them to publish.`;
  });
  // After a refusal for a stale draft_version: the draft as saved now (someone else's change), replacing the text.
  const reload = useAction(async () => {
    const answer = await answerOf(api.GET('/api/v1/client/journeys/{id}', path), 'Reading the draft');
    const fresh = jsonOf(answer.data.draft);
    setText(fresh);
    setSaved({ text: fresh, draftVersion: answer.data.draft_version });
    setIssues(answer.data.issues);
    setSyntax([]);
    save.reset();
    return 'The saved draft is loaded: make your change again and save.';
  });
  const imported = useAction(async (file: File) => {
    const raw = await file.text();
    const found = readJson(raw);
    setSyntax(found.problems);
    setText(found.problems.length === 0 ? jsonOf(found.value) : raw);
    if (found.problems.length > 0) throw new Error(`${file.name} is not JSON: see the places below.`);
    return `${file.name} imported into the text: nothing is saved until you press Save draft.`;
  });

  const show = (range: TextRange | undefined) => {
    if (range && editor.current) selectInTextarea(editor.current, range);
  };
  const stale = save.failure?.status === 409;

  return (
    <>
      {counts && <CountsRead counts={counts} />}
      <ViewTabs view={shown} onView={setView} flowNote={flowNote} />
      {shown === 'flow' && (
        <ViewPanel view="flow">
          {writes && (
            <div class="form-actions">
              <button type="button" onClick={() => save.run()} disabled={save.busy || validate.busy}>
                {save.busy ? 'Saving…' : 'Save draft'}
              </button>
              {changed && !save.busy && <span class="hint">Unsaved changes.</span>}
            </div>
          )}
          <ActionStatus action={save} />
          <FlowView
            api={api}
            definition={read.value}
            issues={issues}
            counts={counts?.steps}
            readOnly={!writes}
            onChange={(next: JourneyDefinition) => setText(jsonOf(next))}
          />
        </ViewPanel>
      )}
      {shown === 'json' && (
        <ViewPanel view="json">
          {/* The text and the outline side by side on a wide screen, the outline following as the text changes. */}
          <div class="editor-layout page-section">
            <section class="editor" aria-labelledby="jy-draft-title">
              <h2 id="jy-draft-title">Draft</h2>
              <Form onSubmit={save.run} failure={save.failure} aria-labelledby="jy-draft-title">
                <Field
                  id={EDITOR_ID}
                  label="The draft as JSON"
                  name="definition"
                  hint={
                    writes
                      ? 'A trigger, an entry step, the steps and the settings (the API guide’s “Journeys” describes each). A draft saves with its issues; publishing needs none.'
                      : 'Your role reads the draft; a member, an admin or the owner changes it.'
                  }
                >
                  {(control) => (
                    <textarea
                      {...control}
                      ref={editor}
                      class="code-input"
                      rows={22}
                      value={text}
                      readOnly={!writes}
                      spellcheck={false}
                      autocomplete="off"
                      onInput={(event) => setText(event.currentTarget.value)}
                    />
                  )}
                </Field>
                <FailureAlert />
                {stale && (
                  <div class="row-actions">
                    <ConfirmButton
                      label="Load the saved draft"
                      confirm="Replace your text with the saved draft? Copy your changes first: they are lost."
                      busy={reload.busy}
                      onConfirm={() => reload.run()}
                    />
                  </div>
                )}
                {writes && (
                  <FormActions submit="Save draft" busy={save.busy || validate.busy} busyLabel="Saving…">
                    {changed && !save.busy && <span class="hint">Unsaved changes.</span>}
                    <Done text={save.done} />
                  </FormActions>
                )}
              </Form>
              <ActionStatus action={reload} />
              <Problems
                syntax={read.problems.length > 0 ? read.problems : syntax}
                issues={read.problems.length === 0 ? issues : []}
                onSyntax={show}
                onIssue={(issue) => show(rangeOfPath(text, issue.path))}
                stepOf={(issue) => /^steps\.(\d+)(\.|$)/.exec(issue.path)?.[1]}
              />
              <JsonTools text={text} fileName={`journey-${journey.id}.json`} target={EDITOR_ID} />
              {writes && (
                <div class="page-section">
                  <Field
                    id="jy-import"
                    label="Import a JSON file"
                    hint="Replaces the text above; nothing is saved until you press Save draft."
                  >
                    {(control) => (
                      <input
                        {...control}
                        type="file"
                        accept="application/json,.json"
                        onChange={(event) => {
                          const file = event.currentTarget.files?.[0];
                          event.currentTarget.value = '';
                          if (file) void imported.run(file);
                        }}
                      />
                    )}
                  </Field>
                  <ActionStatus action={imported} />
                </div>
              )}
            </section>
            <JourneyOutline
              definition={read.problems.length === 0 ? read.value : journey.draft}
              issues={read.problems.length === 0 ? issues : []}
              prefix="jy-draft"
              counts={counts?.steps}
              title={changed ? 'Steps (as typed, not saved yet)' : 'Steps'}
            />
          </div>
        </ViewPanel>
      )}
      <section class="page-section" aria-labelledby="jy-publish-title">
        <h2 id="jy-publish-title">Validate and publish</h2>
        {writes && (
          <div class="row-actions">
            <button type="button" onClick={() => validate.run()} disabled={validate.busy || save.busy}>
              {validate.busy ? 'Validating…' : changed ? 'Save and validate' : 'Validate'}
            </button>
          </div>
        )}
        <ActionStatus action={validate} />
        {validation && <ValidationResult validation={validation} current={validation.text === text} />}
        {manages && validation?.valid && validation.text === text && (
          <Publish
            api={api}
            journey={journey}
            validation={validation}
            draftVersion={saved.draftVersion}
            onPublished={onPublished}
          />
        )}
        <Done text={published} />
        {!manages && writes && (
          <p class="hint">An owner or an admin publishes, pauses and archives journeys: they decide mail at volume.</p>
        )}
      </section>
    </>
  );
}

/**
 * When the counts on the steps were read. Plain text, not a live region: a screen reader is not told of every read,
 * and finds the time here when it wants it.
 */
function CountsRead({ counts }: { counts: LiveCounts }) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return (
    <p class="hint">
      Counts on the steps read at <When at={iso(counts.readAt)} />
      {counts.failedAt === undefined ? (
        `, read again every ${COUNTS_REREAD_MS / 1000} s while this page is shown.`
      ) : (
        <>
          ; reading them again failed at <When at={iso(counts.failedAt)} />, tried again every {COUNTS_REREAD_MS / 1000}{' '}
          s.
        </>
      )}
    </p>
  );
}

/**
 * What keeps the draft from being JSON (each place a button selecting it in the text), or the issues validation found
 * at their JSON paths (each a button selecting that member in the text, and a link to its step in the outline).
 */
function Problems(props: {
  syntax: readonly SyntaxProblem[];
  issues: readonly JourneyIssue[];
  onSyntax: (range: TextRange) => void;
  onIssue: (issue: JourneyIssue) => void;
  stepOf: (issue: JourneyIssue) => string | undefined;
}) {
  const { syntax, issues, onSyntax, onIssue, stepOf } = props;
  if (syntax.length > 0) {
    return (
      <section class="page-section" aria-labelledby="jy-syntax-title">
        <h3 id="jy-syntax-title">Not JSON ({syntax.length})</h3>
        <ul class="issue-list">
          {syntax.map((problem, at) => (
            <li key={at}>
              <button type="button" class="small secondary" onClick={() => onSyntax(problem)}>
                Line {problem.line}, column {problem.column}
              </button>{' '}
              {problem.message}
            </li>
          ))}
        </ul>
      </section>
    );
  }
  if (issues.length === 0) return null;
  return (
    <section class="page-section" aria-labelledby="jy-issues-title">
      <h3 id="jy-issues-title">Issues ({issues.length})</h3>
      <ul class="issue-list">
        {issues.map((issue, at) => {
          const step = stepOf(issue);
          return (
            <li key={at}>
              <button
                type="button"
                class="small secondary"
                aria-label={`Show ${issue.path || 'the definition'} in the JSON`}
                onClick={() => onIssue(issue)}
              >
                <code>{issue.path || '(the definition)'}</code>
              </button>{' '}
              {issue.error} <small>({issue.condition})</small>
              {step !== undefined && (
                <>
                  {' '}
                  <a
                    href={`#jy-draft-step-${step}`}
                    onClick={(event) => {
                      event.preventDefault();
                      focusStep('jy-draft', Number(step));
                    }}
                  >
                    step {Number(step) + 1} in the outline
                  </a>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
