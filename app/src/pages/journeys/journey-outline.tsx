import {
  type Edge,
  edgesOf,
  type JourneyDefinition,
  type JourneyIssue,
  type JourneyStep,
  stepSummaryOf,
  triggerText,
} from './journey-text.js';
import type { StepCounts } from './journey-counts.js';

/** The element id of the outline's item for the step at `index` (step ids are the client's text: the index is safe). */
export const stepElementId = (prefix: string, index: number) => `${prefix}-step-${index}`;

/** Moves the focus to a step of the outline (its item is focusable), for a link to it or an issue about it. */
export function focusStep(prefix: string, index: number): void {
  const item = document.getElementById(stepElementId(prefix, index));
  item?.scrollIntoView?.({ block: 'center' });
  item?.focus();
}

/** "3 here now · 12 entered, 9 sent in 30 days": what the step holds and did (sent only on a send step). */
const countsText = (c: StepCounts, sends: boolean): string =>
  `${c.waiting} here now · ${c.entered} entered${sends ? `, ${c.sent} sent` : ''} in 30 days`;

/** A half-typed draft may hold anything: each line falls back to nothing rather than break the page. */
function tried<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The steps of a value that looks like a definition (an object with a list of objects under `steps`). */
function stepsOf(definition: unknown): Partial<JourneyStep>[] {
  if (!definition || typeof definition !== 'object' || !('steps' in definition)) return [];
  const steps = (definition as { steps: unknown }).steps;
  return Array.isArray(steps) ? steps.filter((step) => step && typeof step === 'object') : [];
}

/**
 * A journey's steps as a readable outline, in the order they are written: each step's id, type and what it does in
 * one line, and where each of its edges leads (a link moving the focus to that step, or "the run ends"), with the
 * issues found at it. An accessible list, not a drawing: every step is a list item reached from the edges pointing at
 * it.
 */
export function JourneyOutline(props: {
  /** The draft being edited (anything the JSON held) or a published definition. */
  definition: unknown;
  issues?: readonly JourneyIssue[];
  /** Element ids start with it (two outlines on a page stay apart). */
  prefix: string;
  title: string;
  /** The live counts by step id (a published journey's), shown on each step that has them. */
  counts?: ReadonlyMap<string, StepCounts> | undefined;
}) {
  const { definition, issues = [], prefix, title, counts } = props;
  const steps = stepsOf(definition);
  const indexOf = new Map(steps.map((step, index) => [step.id, index]));
  const entry = tried(() => (definition as JourneyDefinition).entry, undefined);
  const trigger = tried(() => triggerText((definition as JourneyDefinition).trigger), '');
  const titleId = `${prefix}-outline-title`;

  const target = (edge: Edge) => {
    if (edge.to === null) return <span class="hint">the run ends</span>;
    const index = indexOf.get(edge.to);
    if (index === undefined) return <span class="field-error">{edge.to} (no such step)</span>;
    return (
      <a
        href={`#${stepElementId(prefix, index)}`}
        onClick={(event) => {
          event.preventDefault();
          focusStep(prefix, index);
        }}
      >
        {edge.to}
      </a>
    );
  };

  return (
    <section class="page-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {trigger && <p>{trigger}.</p>}
      {steps.length === 0 ? (
        <p class="hint">No step yet: the JSON’s `steps` lists them.</p>
      ) : (
        <ol class="step-outline">
          {steps.map((step, index) => {
            const edges = tried(() => edgesOf(step as JourneyStep), []);
            const found = issues.filter(
              (issue) => issue.path === `steps.${index}` || issue.path.startsWith(`steps.${index}.`),
            );
            const headId = `${stepElementId(prefix, index)}-head`;
            return (
              <li
                key={`${index}-${String(step.id)}`}
                id={stepElementId(prefix, index)}
                tabIndex={-1}
                aria-labelledby={headId}
              >
                <p id={headId} class="step-head">
                  <code>{String(step.id ?? '(no id)')}</code> <span class="badge">{String(step.type ?? '?')}</span>
                  {step.id !== undefined && step.id === entry && <span class="badge">entry</span>}
                </p>
                <p class="step-summary">{tried(() => stepSummaryOf(step as JourneyStep), '')}</p>
                {typeof step.id === 'string' && counts?.has(step.id) && (
                  <p class="step-counts">{countsText(counts.get(step.id)!, step.type === 'send')}</p>
                )}
                {edges.length > 0 && (
                  <ul class="step-edges" aria-label={`Where ${String(step.id)} leads`}>
                    {edges.map((edge, at) => (
                      <li key={at}>
                        {edge.label} → {target(edge)}
                      </li>
                    ))}
                  </ul>
                )}
                {found.length > 0 && (
                  <ul class="step-issues" aria-label={`Issues at ${String(step.id)}`}>
                    {found.map((issue, at) => (
                      <li key={at} class="field-error">
                        <code>{issue.path}</code>: {issue.error}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
