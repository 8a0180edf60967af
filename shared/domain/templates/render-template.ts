import { createHash } from 'node:crypto';
import { Eta, type TemplateFunction } from 'eta';
import { inspectTemplate, parseInterpolation, unsafeItem } from './template-safety.js';
import { unprocessable } from '../../errors.js';

/**
 * Renders templates that passed the DESIGN.md §6 check with eta. Each accepted interpolation is compiled to a
 * lookup of its path through own properties only (no prototype, no getters of built-ins), so a missing variable
 * is `undefined` (then the `??` default, else empty) instead of a TypeError.
 */
export type RenderMode = 'html' | 'text';

/** Own-property path lookup, injected at the top of every compiled template. */
const LOOKUP_HEADER =
  'const __lookup = (o, p) => { for (const k of p) { if (o === null || typeof o !== "object" || ' +
  '!Object.prototype.hasOwnProperty.call(o, k)) return undefined; o = o[k]; } return o; };';

/** null/undefined → empty; arrays joined; other objects as JSON; everything else `String`. */
function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(toText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Second line of defence: the AST eta compiles is re-checked node by node and every interpolation is rewritten
 * from the path the check parsed, never from the source text.
 */
const rewriteInterpolations = {
  processAST(ast: ReturnType<Eta['parse']>) {
    return ast.map((node) => {
      if (typeof node === 'string') return node;
      const parsed = node.t === 'i' ? parseInterpolation(node.val.trim()) : 'not an interpolation';
      if (typeof parsed === 'string') throw new Error(`unsafe template reached the compiler: ${parsed}`);
      const lookup = `__lookup(it, ${JSON.stringify(parsed.path)})`;
      const val = parsed.fallback === undefined ? lookup : `${lookup} ?? ${JSON.stringify(parsed.fallback)}`;
      return { ...node, val };
    });
  },
};

const common = {
  autoTrim: false as const,
  autoFilter: true,
  filterFunction: toText,
  functionHeader: LOOKUP_HEADER,
  plugins: [rewriteInterpolations],
};
const engines: Record<RenderMode, Eta> = {
  // HTML: every interpolated value is XML-escaped (eta's autoEscape) after it became text.
  html: new Eta({ ...common, autoEscape: true }),
  // Subject, preview text and text body are plain text: no escaping.
  text: new Eta({ ...common, autoEscape: false }),
};

const MAX_CACHED = 500;
const compiled = new Map<string, TemplateFunction>();

/** The compiled function for this source, cached by the content hash (and mode). */
function compileCached(source: string, mode: RenderMode): TemplateFunction {
  const hash = createHash('sha256').update(mode).update('\0').update(source).digest('hex');
  const hit = compiled.get(hash);
  if (hit) {
    // Refresh recency: Map keeps insertion order, so the oldest entry is evicted first.
    compiled.delete(hash);
    compiled.set(hash, hit);
    return hit;
  }
  const fn = engines[mode].compile(source);
  compiled.set(hash, fn);
  if (compiled.size > MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
  return fn;
}

/** Number of compiled templates held (tests, diagnostics). */
export const compiledTemplateCount = (): number => compiled.size;

/**
 * Renders one template part. Throws 422 `unsafe` (keyed by `key`) when the source breaks DESIGN.md §6 —
 * checked before anything is compiled.
 */
export function renderTemplate(
  source: string,
  vars: Record<string, unknown>,
  mode: RenderMode,
  key = 'template',
): string {
  const inspection = inspectTemplate(source);
  if (!inspection.safe) throw unprocessable([unsafeItem(key, inspection)]);
  const fn = compileCached(source, mode);
  return fn.call(engines[mode], vars);
}

/** A rendered subject (or any header value) on one line: line breaks from variables become spaces. */
export const toSingleLine = (rendered: string): string => rendered.replace(/\s*[\r\n]+\s*/g, ' ').trim();
