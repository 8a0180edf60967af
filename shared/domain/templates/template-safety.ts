import { Eta } from 'eta';
import { unprocessable, type ErrorItem } from '../../errors.js';

/**
 * DESIGN.md §6: a template is data. The only tag allowed is an interpolation of a dotted variable path,
 * `<%= it.contact.first_name %>`, optionally with a string default: `<%= it.contact.first_name ?? "there" %>`.
 * Tags are found with eta's own parser (so what we check is exactly what eta would compile); each tag's content
 * is then matched against that grammar. Nothing is compiled before every tag of every part passed.
 */

/** One interpolation the check accepted: the path below `it` and the optional default literal. */
export interface Interpolation {
  path: string[];
  fallback?: string;
}

export type TemplateInspection =
  | { safe: true; interpolations: Interpolation[] }
  | { safe: false; tag: string; reason: string };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FORBIDDEN_SEGMENTS = new Set(['constructor', '__proto__', 'prototype']);
const MAX_PATH_DEPTH = 8;
/** `it.a.b` then optionally `?? "literal"` / `?? 'literal'` (no escapes, no line breaks, no template literals). */
const INTERPOLATION = /^(it(?:\s*\.\s*[^\s.?]+)+)\s*(?:\?\?\s*("[^"\\\r\n]*"|'[^'\\\r\n]*'))?$/;

/** A parser-only eta instance: the same tag syntax as the renderer, never used to compile. */
const parser = new Eta({ autoTrim: false });

const PREFIX_OF_TYPE: Record<string, string> = { i: '=', r: '~', e: '' };

export const ALLOWED_TAG_HINT =
  'only interpolations like <%= it.contact.first_name %> (optionally ?? "default") are allowed';

/** Checks one template source; never compiles or runs it. */
export function inspectTemplate(source: string): TemplateInspection {
  let ast: ReturnType<Eta['parse']>;
  try {
    ast = parser.parse(source);
  } catch (error) {
    const detail = (error instanceof Error ? (error.message.split('\n')[0] ?? '') : '').replace(/:$/, '');
    return { safe: false, tag: snippetAt(source, detail), reason: `the template does not parse (${detail})` };
  }
  const interpolations: Interpolation[] = [];
  for (const node of ast) {
    if (typeof node === 'string') continue;
    const tag = `<%${PREFIX_OF_TYPE[node.t] ?? node.t} ${node.val.trim()} %>`;
    if (node.t !== 'i') {
      const kind = node.t === 'r' ? 'raw (unescaped) output' : 'code';
      return { safe: false, tag, reason: `${kind} is not allowed` };
    }
    const parsed = parseInterpolation(node.val.trim());
    if (typeof parsed === 'string') return { safe: false, tag, reason: parsed };
    interpolations.push(parsed);
  }
  return { safe: true, interpolations };
}

/** The source from the position eta's parse error names (`… at line L col C`), shortened. */
function snippetAt(source: string, detail: string): string {
  const at = / at line (\d+) col (\d+)/.exec(detail);
  if (!at) return '<%';
  const lines = source.split('\n');
  const offset = lines.slice(0, Number(at[1]) - 1).reduce((n, l) => n + l.length + 1, 0) + Number(at[2]) - 1;
  const rest = source.slice(offset, offset + 40).split('\n')[0] ?? '';
  return rest.length > 0 ? `${rest}${source.length > offset + 40 ? '…' : ''}` : '<%';
}

/** The interpolation, or why it is refused. */
export function parseInterpolation(expression: string): Interpolation | string {
  const match = INTERPOLATION.exec(expression);
  if (!match?.[1])
    return 'only a dotted variable path below `it` (with an optional string default) may be interpolated';
  const path = match[1]
    .split('.')
    .map((s) => s.trim())
    .slice(1);
  for (const segment of path) {
    if (!IDENTIFIER.test(segment)) return `"${segment}" is not a plain variable name`;
    if (FORBIDDEN_SEGMENTS.has(segment) || segment.startsWith('__'))
      return `"${segment}" may not be used in a variable path`;
  }
  if (path.length > MAX_PATH_DEPTH) return `variable paths have at most ${MAX_PATH_DEPTH} segments`;
  const literal = match[2];
  return literal === undefined ? { path } : { path, fallback: literal.slice(1, -1) };
}

/** The error item for an unsafe part of a template, keyed by the part (`html_body`, `subject`, …). */
export function unsafeItem(key: string, inspection: Extract<TemplateInspection, { safe: false }>): ErrorItem {
  return {
    condition: 'unsafe',
    key,
    error: `Template tag ${inspection.tag} is refused: ${inspection.reason}; ${ALLOWED_TAG_HINT}`,
  };
}

/** Throws 422 `unsafe` with one item per offending part; `keyPrefix` prefixes each key. */
export function assertSafeTemplates(parts: Record<string, string | undefined>, keyPrefix = ''): void {
  const items: ErrorItem[] = [];
  for (const [key, source] of Object.entries(parts)) {
    if (source === undefined) continue;
    const inspection = inspectTemplate(source);
    if (!inspection.safe) items.push(unsafeItem(`${keyPrefix}${key}`, inspection));
  }
  if (items.length > 0) throw unprocessable(items);
}

/** eta's parse keeps text escaped for the code it generates (`\\`, `\'`, line breaks as `\n`): the text as written. */
const unescapeEtaText = (text: string): string =>
  text.replace(/\\([\\'n])/g, (_all, c: string) => (c === 'n' ? '\n' : c));

/** A template source (one that passed `inspectTemplate`) with each tag replaced by `placeholder`: the text around them as written. */
export const templateSkeleton = (source: string, placeholder: string): string =>
  parser
    .parse(source)
    .map((node) => (typeof node === 'string' ? unescapeEtaText(node) : placeholder))
    .join('');
