import { type Edge, edgesOf, type JourneyDefinition, type JourneyStep } from './journey-text.js';

/**
 * Where each part of a journey's drawing goes: rows top-down and lanes side by side, as a grid the page places its
 * boxes in. Pure (no DOM), so a broken draft's layout is tested as any other.
 *
 * - Row 0 is the trigger; a step's row is its longest path from the entry (+1), so a step reached by two paths of
 *   different lengths sits below both, and every edge points down (a cycle's closing edge aside, marked `back`).
 * - Lanes: each step is drawn in the lanes of the step it is first reached from (depth first, its edges in the order
 *   the step takes them); a step taking several ways (a branch's cases, a split's arms, a wait's event and timeout)
 *   gives each its own lanes, side by side, and spans them all. A step where paths join spans the lanes of the steps
 *   it is reached from when nothing else in its row is in the way.
 * - An edge that ends the run (`null`) or names no step draws a small end box of its own, so a branch ending on one
 *   side still shows its two ways side by side.
 * - Steps the entry never reaches (and a second step with a taken id) are listed apart, in the order written.
 */

/** The key of the trigger's box. */
export const TRIGGER_KEY = 'trigger';

export type FlowNode =
  | { kind: 'trigger'; key: string; row: number; lane: number; span: number; level: number }
  | {
      kind: 'step';
      key: string;
      /** The step's id and its index in the definition's list (element ids use the index: ids are client text). */
      id: string;
      index: number;
      step: JourneyStep;
      row: number;
      lane: number;
      span: number;
      /** How deep in ways taken it is: 1 on the entry's line, +1 in each way of a step that takes several. */
      level: number;
      /** It is the entry step. */
      entry: boolean;
    }
  | {
      kind: 'end' | 'missing';
      key: string;
      /** For `missing`: the step id the edge names that no step has. */
      to: string | null;
      row: number;
      lane: number;
      span: number;
      level: number;
    };

export interface FlowEdge {
  from: string;
  to: string;
  /** What the edge is called ("then", "on checkout_completed", "if “Pro”", "arm “A” (50 %)"). */
  label: string;
  /** The source takes several ways: the label is worth drawing. */
  labelled: boolean;
  /** It closes a cycle (a broken draft): drawn, but not laid out by. */
  back: boolean;
}

export interface FlowLayout {
  /** Every box, in reading order: the trigger, then depth first (a step, then each of its ways in order). */
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** How many rows (the trigger's included) and lanes the grid has. */
  rows: number;
  lanes: number;
  /** Steps the entry does not reach, or whose id an earlier step has: their index in the list, in order. */
  unreachable: number[];
}

/** A half-typed draft may hold anything: a step whose edges cannot be read has none. */
function edgesOfAny(step: unknown): Edge[] {
  try {
    return edgesOf(step as JourneyStep);
  } catch {
    return [];
  }
}

const stepKey = (index: number) => `step-${index}`;

/** The steps of a value that looks like a definition (anything else has none). */
function stepsOf(definition: unknown): unknown[] {
  if (!definition || typeof definition !== 'object') return [];
  const steps = (definition as { steps?: unknown }).steps;
  return Array.isArray(steps) ? steps : [];
}

export function layoutOf(definition: JourneyDefinition | unknown): FlowLayout {
  const steps = stepsOf(definition);
  const entryId = (definition as { entry?: unknown } | null)?.entry;
  // The first step of an id is the one edges lead to (the API says the second is a duplicate).
  const indexOf = new Map<string, number>();
  steps.forEach((step, index) => {
    const id = (step as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && !indexOf.has(id)) indexOf.set(id, index);
  });

  // Targets: a step's index, or a terminal made for that edge.
  type Target = { step: number } | { terminal: 'end' | 'missing'; to: string | null; key: string };
  const targetOf = (to: unknown, key: string): Target => {
    if (to === null || to === undefined) return { terminal: 'end', to: null, key };
    const index = typeof to === 'string' ? indexOf.get(to) : undefined;
    return index === undefined ? { terminal: 'missing', to: String(to), key } : { step: index };
  };
  const outs = new Map<number, { edge: Edge; target: Target }[]>();
  const outOf = (index: number) => {
    let out = outs.get(index);
    if (!out) {
      out = edgesOfAny(steps[index]).map((edge, at) => ({
        edge,
        target: targetOf(edge.to, `${stepKey(index)}-end-${at}`),
      }));
      outs.set(index, out);
    }
    return out;
  };

  // No step yet: the trigger alone (the page offers the first step).
  if (steps.length === 0) {
    return {
      nodes: [{ kind: 'trigger', key: TRIGGER_KEY, row: 0, lane: 0, span: 1, level: 1 }],
      edges: [],
      rows: 1,
      lanes: 1,
      unreachable: [],
    };
  }
  const entryTarget: Target =
    typeof entryId === 'string' && indexOf.has(entryId)
      ? { step: indexOf.get(entryId) as number }
      : { terminal: 'missing', to: typeof entryId === 'string' ? entryId : null, key: 'entry-end' };

  // Depth first from the entry: the tree parent of each step (the first to reach it), edges that close a cycle,
  // and the order of reading. Iterative, so a long chain in a broken draft cannot exhaust the stack.
  const visited = new Set<number>();
  const onPath = new Set<number>();
  const back = new Set<string>(); // `${from}>${edgeIndex}`
  const treeChildren = new Map<number, Target[]>(); // in order; terminals included
  const parentOf = new Map<number, number>();
  if ('step' in entryTarget) {
    const stack: { index: number; next: number }[] = [{ index: entryTarget.step, next: 0 }];
    visited.add(entryTarget.step);
    onPath.add(entryTarget.step);
    treeChildren.set(entryTarget.step, []);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { index: number; next: number };
      const out = outOf(top.index);
      if (top.next >= out.length) {
        onPath.delete(top.index);
        stack.pop();
        continue;
      }
      const at = top.next;
      top.next += 1;
      const { target } = out[at] as { target: Target };
      const children = treeChildren.get(top.index) as Target[];
      if (!('step' in target)) {
        children.push(target);
        continue;
      }
      if (onPath.has(target.step)) {
        back.add(`${top.index}>${at}`);
        continue;
      }
      if (visited.has(target.step)) continue;
      visited.add(target.step);
      onPath.add(target.step);
      parentOf.set(target.step, top.index);
      children.push(target);
      treeChildren.set(target.step, []);
      stack.push({ index: target.step, next: 0 });
    }
  }

  // Rows: the longest path from the entry over the edges that are not back edges (a DAG), in topological order.
  const rowOf = new Map<number, number>();
  const indegree = new Map<number, number>();
  for (const index of visited) {
    outOf(index).forEach(({ target }, at) => {
      if ('step' in target && !back.has(`${index}>${at}`))
        indegree.set(target.step, (indegree.get(target.step) ?? 0) + 1);
    });
  }
  const ready = 'step' in entryTarget ? [entryTarget.step] : [];
  if ('step' in entryTarget) rowOf.set(entryTarget.step, 1);
  while (ready.length > 0) {
    const index = ready.shift() as number;
    const row = rowOf.get(index) as number;
    outOf(index).forEach(({ target }, at) => {
      if (!('step' in target) || back.has(`${index}>${at}`)) return;
      rowOf.set(target.step, Math.max(rowOf.get(target.step) ?? 0, row + 1));
      const left = (indegree.get(target.step) ?? 0) - 1;
      indegree.set(target.step, left);
      if (left === 0) ready.push(target.step);
    });
  }

  // Lanes: the width of each tree child's subtree, laid left to right.
  const widthOf = new Map<number, number>();
  const width = (target: Target): number => ('step' in target ? (widthOf.get(target.step) ?? 1) : 1);
  // Post-order over the tree, iteratively (children before parents).
  const post: number[] = [];
  if ('step' in entryTarget) {
    const stack = [entryTarget.step];
    while (stack.length > 0) {
      const index = stack.pop() as number;
      post.push(index);
      for (const child of treeChildren.get(index) ?? []) if ('step' in child) stack.push(child.step);
    }
  }
  for (const index of post.reverse()) {
    const children = treeChildren.get(index) ?? [];
    // A step with one way keeps its lane for what follows; an end after it needs no lane of its own.
    const sum = children.reduce((total, child) => total + width(child), 0);
    widthOf.set(index, Math.max(1, sum));
  }
  const lanes = width(entryTarget);

  const nodes: FlowNode[] = [{ kind: 'trigger', key: TRIGGER_KEY, row: 0, lane: 0, span: lanes, level: 1 }];
  const nodeOf = new Map<string, FlowNode>();
  const place = (target: Target, lane: number, row: number, level: number) => {
    if (!('step' in target)) {
      const node: FlowNode = { kind: target.terminal, key: target.key, to: target.to, row, lane, span: 1, level };
      nodes.push(node);
      nodeOf.set(node.key, node);
      return;
    }
    const index = target.step;
    const span = widthOf.get(index) ?? 1;
    const step = steps[index] as JourneyStep;
    const node: FlowNode = {
      kind: 'step',
      key: stepKey(index),
      id: String(step.id),
      index,
      step,
      row: rowOf.get(index) ?? row,
      lane,
      span,
      level,
      entry: step.id === entryId,
    };
    nodes.push(node);
    nodeOf.set(node.key, node);
    const children = treeChildren.get(index) ?? [];
    const ways = edgesOfAny(step).length;
    let at = lane;
    for (const child of children) {
      place(child, at, node.row + 1, ways > 1 ? level + 1 : level);
      at += width(child);
    }
  };
  // Recursion depth is the tree's depth, at most the steps a definition may hold (and the list's length).
  place(entryTarget, 0, 1, 1);

  const sourcesOf = new Map<number, number[]>();
  for (const index of visited) {
    outOf(index).forEach(({ target }, at) => {
      if ('step' in target && !back.has(`${index}>${at}`))
        sourcesOf.set(target.step, [...(sourcesOf.get(target.step) ?? []), index]);
    });
  }
  // Joins: a step reached from several steps spans their lanes when nothing else in its row is in the way.
  for (const node of nodes) {
    if (node.kind !== 'step') continue;
    const from = (sourcesOf.get(node.index) ?? []).flatMap((index) => nodeOf.get(stepKey(index)) ?? []);
    if (from.length < 2) continue;
    const start = Math.min(node.lane, ...from.map((source) => source.lane));
    const end = Math.max(node.lane + node.span, ...from.map((source) => source.lane + source.span));
    const blocked = nodes.some(
      (other) => other !== node && other.row === node.row && other.lane < end && other.lane + other.span > start,
    );
    if (!blocked) {
      node.lane = start;
      node.span = end - start;
    }
  }

  const edges: FlowEdge[] = [
    {
      from: TRIGGER_KEY,
      to: 'step' in entryTarget ? stepKey(entryTarget.step) : entryTarget.key,
      label: 'entry',
      labelled: false,
      back: false,
    },
  ];
  for (const node of nodes) {
    if (node.kind !== 'step') continue;
    const out = outOf(node.index);
    out.forEach(({ edge, target }, at) => {
      edges.push({
        from: node.key,
        to: 'step' in target ? stepKey(target.step) : target.key,
        label: edge.label,
        labelled: out.length > 1,
        back: back.has(`${node.index}>${at}`),
      });
    });
  }

  const unreachable = steps.map((_, index) => index).filter((index) => !visited.has(index));
  const rows = Math.max(1, ...nodes.map((node) => node.row + 1));
  return { nodes, edges, rows, lanes, unreachable };
}
