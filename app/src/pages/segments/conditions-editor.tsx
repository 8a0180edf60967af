import { useMemo, useRef, useState } from 'preact/hooks';
import { SEGMENT_LIMITS } from '../../../../shared/public/segment-rules.js';
import type { Api } from '../../api/client.js';
import { answerOf, type Failure } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import { Field } from '../../ui/field.js';
import { builderCanShow, ConditionsBuilder, type Definition, type EngagementSources } from './conditions-builder.js';
import { pause } from './reread.js';
import {
  rangeOfPath,
  readJson,
  type SyntaxProblem,
  selectInTextarea,
  type TextRange,
} from '../journeys/journey-json.js';
import {
  type DefinitionIssue,
  definitionIssuesOf,
  jsonOf,
  previewText,
  type SegmentDefinition,
} from './segment-text.js';

/** How long typing must pause before the count is asked for again. */
export const PREVIEW_DELAY_MS = 400;

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * The live count of a definition as typed: POST /client/segments/preview once typing has paused, each keystroke's
 * question aborting the one still pausing (only the last is asked). A text that is not a JSON object is not asked
 * about. The preview's refusal (422) lists the definition's issues, as a save would.
 */
function useLiveCount(api: Api, value: unknown) {
  const question = JSON.stringify(value ?? null);
  return useLoad(
    async (signal) => {
      if (!isObject(value)) return undefined;
      await pause(PREVIEW_DELAY_MS, signal);
      return (
        await answerOf(
          api.POST('/api/v1/client/segments/preview', { body: { definition: value as SegmentDefinition }, signal }),
          'Counting the contacts',
        )
      ).data;
    },
    [api, question],
    { keep: true },
  );
}

/** The client's topics, for the builder's topic conditions (none when they cannot be read: the JSON still takes ids). */
function useTopics(api: Api) {
  return useLoad(
    async (signal) => (await answerOf(api.GET('/api/v1/client/topics', { signal }), 'Reading the topics')).data.topics,
    [api],
  );
}

/**
 * The client's journeys and broadcasts, for engagement conditions on one of them (none when they cannot be read:
 * the JSON still takes ids).
 */
function useSources(api: Api) {
  return useLoad(
    async (signal): Promise<EngagementSources> => {
      const [journeys, broadcasts] = await Promise.all([
        answerOf(api.GET('/api/v1/client/journeys', { signal }), 'Reading the journeys'),
        answerOf(api.GET('/api/v1/client/broadcasts', { signal }), 'Reading the broadcasts'),
      ]);
      return {
        journeys: journeys.data.journeys.map(({ id, name }) => ({ id, name })),
        broadcasts: broadcasts.data.broadcasts.map(({ id, name }) => ({ id, name })),
      };
    },
    [api],
  );
}

/**
 * A segment's conditions, built with the condition builder or written as JSON (the "advanced" view, opened on
 * demand; both edit the same text, so each shows what the other wrote): the issues first (what keeps the text from being JSON, each at its line and column;
 * or the API's issues at their JSON path, from the last save or from the live count), each a button selecting that
 * place in the text; the text area; and the live count of the contacts it matches now, in a status line.
 */
export function ConditionsEditor(props: {
  id: string;
  api: Api;
  text: string;
  onText: (text: string) => void;
  /** The last save's refusal: its items about the definition show in the list. */
  failure: Failure | undefined;
  readOnly?: boolean;
}) {
  const { id, api, text, onText, failure, readOnly } = props;
  const editor = useRef<HTMLTextAreaElement>(null);
  const read = useMemo(() => readJson(text), [text]);
  const shown = read.problems.length === 0 && builderCanShow(read.value) ? read.value : undefined;
  const showable = shown !== undefined;
  const [advanced, setAdvanced] = useState(!showable);
  const topics = useTopics(api);
  const sources = useSources(api);
  const count = useLiveCount(api, read.problems.length === 0 ? read.value : undefined);
  const saved = definitionIssuesOf(failure);
  // The count's refusal is about the text as typed now; a save's about the text when it was sent.
  const live = count.failure?.status === 422 ? definitionIssuesOf(count.failure) : [];
  const issues = live.length > 0 ? live : saved;
  const show = (range: TextRange | undefined) => {
    if (!range || !editor.current) return;
    const area = editor.current;
    selectInTextarea(area, range);
    if (!advanced) {
      // A closed JSON view opens first; the selection is made again once it shows, so the focus lands in it.
      setAdvanced(true);
      setTimeout(() => selectInTextarea(area, range), 0);
    }
  };

  let countLine: string;
  if (read.problems.length > 0) countLine = 'The count needs the text to be JSON.';
  else if (!isObject(read.value)) countLine = 'A segment is a JSON object: { "match": …, "groups": […] }.';
  else if (count.loading) countLine = count.data ? `${previewText(count.data)} Counting again…` : 'Counting…';
  else if (count.failure?.status === 422)
    countLine = `No count: ${issues.length === 1 ? 'one issue' : `${issues.length} issues`} to fix (listed above).`;
  else if (count.failure) countLine = `No count: ${count.failure.message}`;
  else countLine = count.data ? previewText(count.data) : '';

  return (
    <div>
      <Issues
        prefix={id}
        syntax={read.problems}
        issues={read.problems.length === 0 ? issues : []}
        text={text}
        onShow={show}
      />
      {showable ? (
        <ConditionsBuilder
          id={`${id}-builder`}
          value={shown as Definition}
          topics={topics.data ?? []}
          {...(sources.data ? { sources: sources.data } : {})}
          readOnly={readOnly}
          onChange={(value) => onText(jsonOf(value))}
        />
      ) : (
        <p id={`${id}-builder-note`} class="hint">
          The builder shows conditions once the JSON below is a segment’s shape (match, groups of conditions of known
          kinds); fix it there.
        </p>
      )}
      <details
        class="advanced-json"
        open={advanced || !showable}
        onToggle={(event) => setAdvanced(event.currentTarget.open)}
      >
        <summary>Advanced: the conditions as JSON</summary>
        <Field
          id={id}
          label="Conditions as JSON"
          hint={`All or any of 1–${SEGMENT_LIMITS.groups} groups, each all or any of 1–${SEGMENT_LIMITS.conditionsPerGroup} conditions (the API guide’s “Segments” lists each kind). The count below follows what you type.`}
        >
          {(control) => (
            <textarea
              {...control}
              ref={editor}
              class="code-input"
              rows={18}
              value={text}
              readOnly={readOnly}
              spellcheck={false}
              autocomplete="off"
              onInput={(event) => onText(event.currentTarget.value)}
            />
          )}
        </Field>
      </details>
      <p id={`${id}-count`} role="status" class="live-count" aria-busy={count.loading && isObject(read.value)}>
        {countLine}
      </p>
    </div>
  );
}

/** The places the text is not JSON, or the API's issues by path: each a button selecting its place in the text. */
function Issues(props: {
  prefix: string;
  syntax: readonly SyntaxProblem[];
  issues: readonly DefinitionIssue[];
  text: string;
  onShow: (range: TextRange | undefined) => void;
}) {
  const { prefix, syntax, issues, text, onShow } = props;
  if (syntax.length > 0) {
    return (
      <section aria-labelledby={`${prefix}-syntax-title`}>
        <h3 id={`${prefix}-syntax-title`}>Not JSON ({syntax.length})</h3>
        <ul class="issue-list">
          {syntax.map((problem, at) => (
            <li key={at}>
              <button type="button" class="small secondary" onClick={() => onShow(problem)}>
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
    <section aria-labelledby={`${prefix}-issues-title`}>
      <h3 id={`${prefix}-issues-title`}>Issues ({issues.length})</h3>
      <ul class="issue-list">
        {issues.map((issue, at) => (
          <li key={at}>
            <button
              type="button"
              class="small secondary"
              aria-label={`Show ${issue.path || 'the conditions'} in the JSON`}
              onClick={() => onShow(rangeOfPath(text, issue.path))}
            >
              <code>{issue.path || '(the conditions)'}</code>
            </button>{' '}
            {issue.error} <small>({issue.condition})</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
