import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { StepType } from '../../../../shared/domain/journeys/definition/types.js';
import type { StepCounts } from './journey-counts.js';
import { type FlowEdge, type FlowLayout, type FlowNode, layoutOf, TRIGGER_KEY } from './journey-layout.js';
import { type JourneyIssue, type JourneyStep, stepSummaryOf, triggerText } from './journey-text.js';

/** What the step panel shows: the trigger, the settings, or one step (by its id). */
export type FlowSelection = { kind: 'trigger' } | { kind: 'settings' } | { kind: 'step'; id: string };

/** A step's kind as people read it on its box. */
const KIND_TEXT: Record<StepType, string> = {
  send: 'Send',
  wait: 'Wait',
  wait_until: 'Wait until',
  wait_for_event: 'Wait for an event',
  branch: 'Branch',
  split: 'Split',
  update_contact: 'Update the contact',
  exit: 'Exit',
};
const KINDS = Object.keys(KIND_TEXT) as StepType[];
const MOVES = ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End'];

const FLOW = 'jy-flow';
/** The element id of a box's button: the trigger's, or a step's by its index (step ids are the client's text). */
export const flowButtonId = (selection: FlowSelection, steps: readonly unknown[]): string | undefined => {
  if (selection.kind === 'trigger') return `${FLOW}-trigger`;
  if (selection.kind === 'settings') return `${FLOW}-settings`;
  const index = steps.findIndex((step) => (step as { id?: unknown } | null)?.id === selection.id);
  return index < 0 ? undefined : `${FLOW}-step-${index}`;
};
const idOfNode = (node: FlowNode): string =>
  node.kind === 'step'
    ? `${FLOW}-step-${node.index}`
    : node.kind === 'trigger'
      ? `${FLOW}-trigger`
      : `${FLOW}-${node.key}`;

/** Moves the focus to the button of a selection (after the panel closes, or a step was added). */
export function focusFlow(selection: FlowSelection, steps: readonly unknown[]): void {
  const id = flowButtonId(selection, steps);
  const button = id ? document.getElementById(id) : null;
  button?.scrollIntoView?.({ block: 'nearest' });
  button?.focus();
}

/** A half-typed draft may hold anything: a line falls back to nothing rather than break the page. */
function tried<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "2 here now · 5 entered" (and what a send step sent), in the stats' default 30 days. */
const countsText = (c: StepCounts, sends: boolean): string =>
  `${c.waiting} here now · ${c.entered} entered${sends ? ` · ${c.sent} sent` : ''}`;

/** The issues found at a step (`steps.3`, `steps.3.on_timeout`, …). */
const issuesAt = (issues: readonly JourneyIssue[], index: number) =>
  issues.filter((issue) => issue.path === `steps.${index}` || issue.path.startsWith(`steps.${index}.`));
const triggerIssues = (issues: readonly JourneyIssue[]) =>
  issues.filter((issue) => /^(trigger|entry)(\.|$)/.test(issue.path));
const settingsIssues = (issues: readonly JourneyIssue[]) =>
  issues.filter((issue) => /^settings(\.|$)/.test(issue.path));

/** A line drawn between two boxes: an SVG path in the drawing's own coordinates. */
interface Line {
  d: string;
  back: boolean;
}

/**
 * The lines of the edges, measured from the boxes as laid out (the grid decides where they are; the lines follow).
 * From the bottom of the source's button to the top of the target's box (its edge label, then its button); a back
 * edge of a broken draft loops up on the right, dashed.
 */
function linesOf(container: HTMLElement, edges: readonly FlowEdge[], nodes: ReadonlyMap<string, FlowNode>): Line[] {
  const origin = container.getBoundingClientRect();
  const rect = (id: string, box: boolean) => {
    const button = document.getElementById(id);
    const element = box ? (button?.closest('li') ?? button) : button;
    return element?.getBoundingClientRect();
  };
  const lines: Line[] = [];
  for (const edge of edges) {
    const from = nodes.get(edge.from);
    const to = nodes.get(edge.to);
    if (!from || !to) continue;
    const a = rect(idOfNode(from), false);
    const b = rect(idOfNode(to), true);
    if (!a || !b || a.width === 0 || b.width === 0) continue;
    if (edge.back) {
      const x1 = a.right - origin.left;
      const y1 = a.top + a.height / 2 - origin.top;
      const x2 = b.right - origin.left;
      const y2 = b.top + b.height / 2 - origin.top;
      const out = Math.max(x1, x2) + 32;
      lines.push({ d: `M ${x1} ${y1} C ${out} ${y1} ${out} ${y2} ${x2} ${y2}`, back: true });
      continue;
    }
    const x1 = a.left + a.width / 2 - origin.left;
    const y1 = a.bottom - origin.top;
    const x2 = b.left + b.width / 2 - origin.left;
    const y2 = b.top - origin.top;
    const mid = (y1 + y2) / 2;
    lines.push({ d: `M ${x1} ${y1} C ${x1} ${mid} ${x2} ${mid} ${x2} ${y2}`, back: false });
  }
  return lines;
}

/**
 * A journey drawn top-down as a flow: the trigger on top, each step a box below the steps that lead to it, the ways of
 * a branch, a split or a wait for an event side by side, and lines between them (decoration: an `aria-hidden` SVG).
 * What the lines say is text too: each box names the way it is reached by ("on timeout", "if “Pro”"), and the boxes
 * are a list in reading order (a step, then each of its ways in turn), each item's `aria-level` its depth in ways.
 * Every step is a button: its kind, id, what it does, its live counts and its issues; one of them is in the tab order,
 * the arrow keys move between them (up and down in reading order, left and right along a row), Enter or Space opens
 * its panel. On a phone the drawing is one column, each way indented under the step it leaves.
 */
export function JourneyGraph(props: {
  /** The draft being edited (as parsed) or a published definition. */
  definition: unknown;
  issues?: readonly JourneyIssue[];
  counts?: ReadonlyMap<string, StepCounts> | undefined;
  selection?: FlowSelection | undefined;
  onSelect: (selection: FlowSelection) => void;
  /** Offered on a journey without steps (not when read-only). */
  onAddFirst?: ((kind: StepType) => void) | undefined;
  /** The id of the panel the buttons open (aria-controls). */
  panelId?: string;
}) {
  const { definition, issues = [], counts, selection, onSelect, onAddFirst, panelId } = props;
  const layout: FlowLayout = useMemo(() => layoutOf(definition), [definition]);
  const steps = useMemo(() => {
    const list = (definition as { steps?: unknown } | null)?.steps;
    return Array.isArray(list) ? (list as unknown[]) : [];
  }, [definition]);
  const nodesByKey = useMemo(() => new Map(layout.nodes.map((node) => [node.key, node])), [layout]);
  const selectedKey =
    selection?.kind === 'trigger'
      ? TRIGGER_KEY
      : selection?.kind === 'step'
        ? layout.nodes.find((node) => node.kind === 'step' && node.id === selection.id)?.key
        : undefined;
  const [active, setActive] = useState<string>(selectedKey ?? TRIGGER_KEY);
  // The one button in the tab order: the one last focused, while it is still drawn.
  const current = nodesByKey.has(active) ? active : (selectedKey ?? TRIGGER_KEY);

  const container = useRef<HTMLDivElement>(null);
  const [lines, setLines] = useState<Line[]>([]);
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const draw = () => {
      const next = linesOf(element, layout.edges, nodesByKey);
      setLines((before) => (JSON.stringify(before) === JSON.stringify(next) ? before : next));
    };
    draw();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(draw);
    observer.observe(element);
    return () => observer.disconnect();
  }, [layout, nodesByKey, counts, issues]);

  const select = (node: FlowNode) => {
    if (node.kind === 'trigger') onSelect({ kind: 'trigger' });
    else if (node.kind === 'step') onSelect({ kind: 'step', id: node.id });
  };
  const move = (node: FlowNode, key: string): FlowNode | undefined => {
    const at = layout.nodes.indexOf(node);
    switch (key) {
      case 'ArrowDown':
        return layout.nodes[at + 1];
      case 'ArrowUp':
        return layout.nodes[at - 1];
      case 'Home':
        return layout.nodes[0];
      case 'End':
        return layout.nodes[layout.nodes.length - 1];
      case 'ArrowRight':
      case 'ArrowLeft': {
        const right = key === 'ArrowRight';
        const row = layout.nodes
          .filter((other) => other.row === node.row && (right ? other.lane > node.lane : other.lane < node.lane))
          .sort((x, y) => (right ? x.lane - y.lane : y.lane - x.lane));
        return row[0];
      }
      default:
        return undefined;
    }
  };
  const onKeyDown = (node: FlowNode) => (event: KeyboardEvent) => {
    if (!MOVES.includes(event.key)) return;
    event.preventDefault();
    const to = move(node, event.key);
    if (!to) return;
    setActive(to.key);
    document.getElementById(idOfNode(to))?.focus();
  };

  /** The labelled edges into a box: the ways it is reached by, as its source names them. */
  const reachedBy = (node: FlowNode) =>
    layout.edges.filter((edge) => edge.to === node.key && edge.labelled && !edge.back).map((edge) => edge.label);

  const box = (node: FlowNode) => {
    const labels = reachedBy(node);
    const style = {
      '--row': String(node.row + 1),
      '--lane': String(node.lane + 1),
      '--span': String(node.span),
      '--level': String(node.level),
    };
    const item = {
      id: idOfNode(node),
      role: 'treeitem' as const,
      'aria-level': node.level,
      tabIndex: node.key === current ? 0 : -1,
      onFocus: () => setActive(node.key),
      onKeyDown: onKeyDown(node),
    };
    const head = labels.length > 0 && <span class="flow-edge-label">{labels.join(' · ')}: </span>;
    if (node.kind !== 'step' && node.kind !== 'trigger') {
      return (
        <div key={node.key} role="none" class="flow-box" style={style}>
          <span {...item} aria-disabled="true" class={node.kind === 'end' ? 'flow-end' : 'flow-end flow-missing'}>
            {head}
            {node.kind === 'end' ? 'The run ends' : `No step “${node.to ?? ''}”`}
          </span>
        </div>
      );
    }
    const selected = node.key === selectedKey;
    const button = {
      ...item,
      type: 'button' as const,
      'aria-selected': selected,
      onClick: () => {
        setActive(node.key);
        select(node);
      },
    };
    if (node.kind === 'trigger') {
      const found = triggerIssues(issues);
      const text = tried(() => triggerText((definition as { trigger: never }).trigger), '');
      return (
        <div key={node.key} role="none" class="flow-box" style={style}>
          <button {...button} class="flow-node flow-trigger">
            <span class="flow-kind">Trigger</span>
            <span class="flow-summary">{text || 'No event chosen yet'}</span>
            {found.length > 0 && <span class="flow-issues">{plural(found.length, 'issue', 'issues')}</span>}
          </button>
        </div>
      );
    }
    const step = node.step as Partial<JourneyStep>;
    const found = issuesAt(issues, node.index);
    const count = counts?.get(node.id);
    return (
      <div key={node.key} role="none" class="flow-box" style={style}>
        <button {...button} class="flow-node">
          {head}
          <span class="flow-kind">
            {KIND_TEXT[step.type as StepType] ?? String(step.type ?? 'Step')} <code>{node.id}</code>
            {node.entry && <span class="visually-hidden"> (entry)</span>}
          </span>
          <span class="flow-summary">{tried(() => stepSummaryOf(step as JourneyStep), '')}</span>
          {count && <span class="flow-counts">{countsText(count, step.type === 'send')}</span>}
          {found.length > 0 && <span class="flow-issues">{plural(found.length, 'issue', 'issues')}</span>}
        </button>
      </div>
    );
  };

  const settingsFound = settingsIssues(issues);
  return (
    <div class="flow-graph">
      <div class="row-actions">
        <button
          id={`${FLOW}-settings`}
          type="button"
          class="secondary"
          aria-expanded={selection?.kind === 'settings'}
          aria-controls={selection?.kind === 'settings' ? panelId : undefined}
          onClick={() => onSelect({ kind: 'settings' })}
        >
          Journey settings
          {settingsFound.length > 0 && ` (${plural(settingsFound.length, 'issue', 'issues')})`}
        </button>
      </div>
      <p id={`${FLOW}-help`} class="hint">
        The arrow keys move between the steps (up and down in reading order, left and right along a row); Enter or Space
        opens a step’s settings, Escape closes them.
      </p>
      <div class="flow-scroll">
        <div class="flow" ref={container} style={{ '--lanes': String(layout.lanes) }}>
          <svg class="flow-lines" aria-hidden="true" focusable="false">
            <defs>
              <marker
                id={`${FLOW}-arrow`}
                viewBox="0 0 10 10"
                refX="9"
                refY="5"
                markerWidth="7"
                markerHeight="7"
                orient="auto"
              >
                <path d="M 0 0 L 10 5 L 0 10 z" />
              </marker>
            </defs>
            {lines.map((line, at) => (
              <path
                key={at}
                d={line.d}
                class={line.back ? 'flow-line back' : 'flow-line'}
                marker-end={`url(#${FLOW}-arrow)`}
              />
            ))}
          </svg>
          <div
            id={FLOW}
            role="tree"
            class="flow-nodes"
            aria-label="The journey’s flow"
            aria-describedby={`${FLOW}-help`}
          >
            {layout.nodes.map(box)}
          </div>
        </div>
      </div>
      {steps.length === 0 && onAddFirst && <AddFirst onAdd={onAddFirst} />}
      {layout.unreachable.length > 0 && (
        <section class="page-section" aria-labelledby={`${FLOW}-apart-title`}>
          <h3 id={`${FLOW}-apart-title`}>Not reached from the entry ({layout.unreachable.length})</h3>
          <p class="hint">No edge leads to these steps (or another step has their id): link them or remove them.</p>
          <ul class="flow-apart">
            {layout.unreachable.map((index) => {
              const step = steps[index] as Partial<JourneyStep> | null;
              const id = typeof step?.id === 'string' ? step.id : undefined;
              const found = issuesAt(issues, index);
              return (
                <li key={index}>
                  <button
                    id={`${FLOW}-step-${index}`}
                    type="button"
                    class="flow-node"
                    disabled={id === undefined}
                    aria-expanded={id !== undefined && selection?.kind === 'step' && selection.id === id}
                    onClick={() => id !== undefined && onSelect({ kind: 'step', id })}
                  >
                    <span class="flow-kind">
                      {KIND_TEXT[step?.type as StepType] ?? 'Step'} <code>{id ?? '(no id)'}</code>
                    </span>
                    <span class="flow-summary">{tried(() => stepSummaryOf(step as JourneyStep), '')}</span>
                    {found.length > 0 && <span class="flow-issues">{plural(found.length, 'issue', 'issues')}</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}

/** A journey without steps: its first, of the kind chosen. */
function AddFirst({ onAdd }: { onAdd: (kind: StepType) => void }) {
  const [kind, setKind] = useState<StepType>('send');
  return (
    <div class="card stacked-form">
      <p class="hint">The journey has no step yet.</p>
      <div class="field">
        <label for={`${FLOW}-first-kind`}>Kind of the first step</label>
        <select
          id={`${FLOW}-first-kind`}
          value={kind}
          onChange={(event) => setKind(event.currentTarget.value as StepType)}
        >
          {KINDS.map((one) => (
            <option key={one} value={one}>
              {KIND_TEXT[one]}
            </option>
          ))}
        </select>
      </div>
      <div class="row-actions">
        <button type="button" onClick={() => onAdd(kind)}>
          Add the first step
        </button>
      </div>
    </div>
  );
}
