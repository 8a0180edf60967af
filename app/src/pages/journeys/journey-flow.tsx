import { useLayoutEffect, useState } from 'preact/hooks';
import type { StepType } from '../../../../shared/domain/journeys/definition/types.js';
import type { Api } from '../../api/client.js';
import { useLoad } from '../../data/use-load.js';
import type { StepCounts } from './journey-counts.js';
import { addStepAfter } from './journey-draft-edit.js';
import { focusFlow, JourneyGraph } from './journey-graph.js';
import type { JourneyDefinition, JourneyIssue } from './journey-text.js';
import { PANEL_TITLE_ID, type Selection, StepPanel } from './step-panel.js';

export type ViewOfJourney = 'flow' | 'json';
const VIEWS: { view: ViewOfJourney; name: string }[] = [
  { view: 'flow', name: 'Flow' },
  { view: 'json', name: 'JSON' },
];
export const viewPanelId = (view: ViewOfJourney) => `jy-view-${view}`;
const tabId = (view: ViewOfJourney) => `jy-tab-${view}`;

/**
 * The two views of one journey, as tabs (the arrow keys move between them): the drawn flow, and the JSON. Both show
 * the same text: an edit in either is an edit of the draft. `flowNote` says why the flow cannot be shown (the text is
 * not JSON): the JSON view is then the one shown.
 */
export function ViewTabs(props: { view: ViewOfJourney; onView: (view: ViewOfJourney) => void; flowNote?: string }) {
  const { view, onView, flowNote } = props;
  const choose = (next: ViewOfJourney) => {
    onView(next);
    document.getElementById(tabId(next))?.focus();
  };
  return (
    <>
      <div class="view-tabs" role="tablist" aria-label="Views of the journey">
        {VIEWS.map((one, at) => (
          <button
            key={one.view}
            id={tabId(one.view)}
            type="button"
            role="tab"
            aria-selected={view === one.view}
            aria-controls={viewPanelId(one.view)}
            tabIndex={view === one.view ? 0 : -1}
            onClick={() => onView(one.view)}
            onKeyDown={(event) => {
              const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
              if (step === 0) return;
              event.preventDefault();
              choose((VIEWS[(at + step + VIEWS.length) % VIEWS.length] as (typeof VIEWS)[number]).view);
            }}
          >
            {one.name}
          </button>
        ))}
      </div>
      {flowNote && <p class="hint">{flowNote}</p>}
    </>
  );
}

/** The tab panel of a view (labelled by its tab). */
export function ViewPanel(props: { view: ViewOfJourney; children: preact.ComponentChildren }) {
  return (
    <div id={viewPanelId(props.view)} role="tabpanel" aria-labelledby={tabId(props.view)}>
      {props.children}
    </div>
  );
}

/** At most this many pages of 100 templates are offered in a send step's list (a longer list is typed in the JSON). */
const TEMPLATE_PAGES = 5;

/**
 * The templates, topics and segments the panel offers by name (a send step's template, the settings' topic, a
 * segment trigger's or condition's segment). A failed read leaves the lists empty: the panel then shows the ids as
 * they are, and the API still checks them.
 */
function useChoices(api: Api) {
  const loaded = useLoad(
    async (signal) => {
      const templates = (async () => {
        const all: { id: number; name: string }[] = [];
        for (let page = 1; page <= TEMPLATE_PAGES; page += 1) {
          const answer = await api.POST('/api/v1/client/email-templates/list', {
            body: { page, per_page: 100 },
            signal,
          });
          const data = answer.data?.data;
          if (!data) break;
          all.push(...data.templates.map((t) => ({ id: t.id, name: t.name })));
          if (page >= (answer.data?.meta.total_pages ?? 1)) break;
        }
        return all;
      })().catch(() => []);
      const topics = api
        .GET('/api/v1/client/topics', { signal })
        .then((answer) => (answer.data?.data.topics ?? []).map((t) => ({ id: t.id, name: t.name })))
        .catch(() => []);
      const segments = api
        .GET('/api/v1/client/segments', { signal })
        .then((answer) => (answer.data?.data.segments ?? []).map((s) => ({ id: s.id, name: s.name })))
        .catch(() => []);
      return { templates: await templates, topics: await topics, segments: await segments };
    },
    [api],
  );
  return loaded.data ?? { templates: [], topics: [], segments: [] };
}

const isDefinition = (value: unknown): value is JourneyDefinition =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * The drawn journey and, beside it (below it on a phone), the panel of what is selected: the trigger, the settings or
 * a step. Selecting a step from the drawing moves the focus to the panel's heading; Escape (or Close) closes the
 * panel and gives the focus back to what was selected. Changes come back as a whole definition (`onChange`).
 */
export function FlowView(props: {
  api: Api;
  definition: unknown;
  issues: readonly JourneyIssue[];
  counts?: ReadonlyMap<string, StepCounts> | undefined;
  readOnly: boolean;
  onChange?: (next: JourneyDefinition) => void;
}) {
  const { api, definition, issues, counts, readOnly, onChange } = props;
  const choices = useChoices(api);
  const [selection, setSelection] = useState<Selection | undefined>();
  // Where the focus goes once the page has drawn the change: the panel's heading, or back to the drawing.
  const [focus, setFocus] = useState<
    { to: 'panel' } | { to: 'panel-if-lost' } | { to: 'graph'; selection: Selection } | undefined
  >();
  const steps = isDefinition(definition) && Array.isArray(definition.steps) ? definition.steps : [];
  // Before the browser paints: a key pressed right after lands where the focus went.
  useLayoutEffect(() => {
    if (!focus) return;
    // After a change from the panel the focus stays in it, unless the control pressed went away with the change.
    const lost = !document.activeElement || document.activeElement === document.body;
    if (focus.to === 'panel' || (focus.to === 'panel-if-lost' && lost)) {
      document.getElementById(PANEL_TITLE_ID)?.focus();
    } else if (focus.to === 'graph' && lost) {
      // The step it was on went away with the change (deleted): the trigger, or where it stands now (renamed).
      const back = focus.selection;
      const there = back.kind !== 'step' || steps.some((step) => step.id === back.id);
      focusFlow(there ? back : { kind: 'trigger' }, steps);
    }
    setFocus(undefined);
  }, [focus, steps]);

  const change = !readOnly && isDefinition(definition) ? onChange : undefined;
  const fromGraph = (next: Selection) => {
    setSelection(next);
    setFocus({ to: 'panel' });
  };
  const close = () => {
    // The focus moves to the box before the panel goes: it never sits on a removed control (which leaves it on the
    // page's body), and the drawing is where a keyboard user goes on from.
    if (selection) {
      focusFlow(selection, steps);
      setFocus({ to: 'graph', selection });
    }
    setSelection(undefined);
  };

  return (
    <div class={selection ? 'flow-layout with-panel' : 'flow-layout'}>
      <div>
        <JourneyGraph
          definition={definition}
          issues={issues}
          counts={counts}
          selection={selection}
          onSelect={fromGraph}
          panelId="jy-panel"
          onAddFirst={
            change && isDefinition(definition)
              ? (kind: StepType) => {
                  const added = addStepAfter(definition, 'trigger', 'entry', kind, {
                    templateId: choices.templates[0]?.id,
                  });
                  if (added.id === null) return;
                  change(added.definition);
                  fromGraph({ kind: 'step', id: added.id });
                }
              : undefined
          }
        />
        <OtherIssues issues={issues} definition={definition} onSelect={fromGraph} />
      </div>
      {selection && isDefinition(definition) && (
        <div id="jy-panel">
          <StepPanel
            definition={definition}
            selection={selection}
            issues={issues}
            templates={choices.templates}
            topics={choices.topics}
            segments={choices.segments}
            readOnly={!change}
            onChange={(next) => change?.(next)}
            onSelect={(next) => {
              // A step added or renamed from the panel: the panel shows it; the focus, if the control pressed went
              // away with the change, lands on its heading rather than the page's top.
              setSelection(next);
              setFocus({ to: 'panel-if-lost' });
            }}
            onClose={close}
          />
        </div>
      )}
    </div>
  );
}

/**
 * The draft's issues as a list under the drawing, each a button opening the part it is about (a step, the trigger,
 * the settings), where the panel shows it at its field.
 */
function OtherIssues(props: {
  issues: readonly JourneyIssue[];
  definition: unknown;
  onSelect: (selection: Selection) => void;
}) {
  const { issues, definition, onSelect } = props;
  if (issues.length === 0) return null;
  const steps = isDefinition(definition) && Array.isArray(definition.steps) ? definition.steps : [];
  const selectionOf = (path: string): Selection | undefined => {
    const step = /^steps\.(\d+)(\.|$)/.exec(path);
    if (step) {
      const id = steps[Number(step[1])]?.id;
      return typeof id === 'string' ? { kind: 'step', id } : undefined;
    }
    if (/^(trigger|entry)(\.|$)/.test(path)) return { kind: 'trigger' };
    if (/^settings(\.|$)/.test(path)) return { kind: 'settings' };
    return undefined;
  };
  return (
    <section class="page-section" aria-labelledby="jy-flow-issues-title">
      <h3 id="jy-flow-issues-title">Issues ({issues.length})</h3>
      <ul class="issue-list">
        {issues.map((issue, at) => {
          const selection = selectionOf(issue.path);
          return (
            <li key={at}>
              {selection ? (
                <button
                  type="button"
                  class="small secondary"
                  aria-label={`Open ${issue.path} in the panel`}
                  onClick={() => onSelect(selection)}
                >
                  <code>{issue.path}</code>
                </button>
              ) : (
                <code>{issue.path || '(the journey)'}</code>
              )}{' '}
              {issue.error}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
