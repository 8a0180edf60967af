import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';

/** A place in the JSON text: the characters from `start` to `end`, and the line and column `start` is at (from 1). */
export interface TextRange {
  start: number;
  end: number;
  line: number;
  column: number;
}

/** Why the text is not JSON, at its place. */
export interface SyntaxProblem extends TextRange {
  message: string;
}

/** The JSON text read: its value, or every place it cannot be read. */
export type ReadJson = { value: unknown; problems: [] } | { value: undefined; problems: SyntaxProblem[] };

const SYNTAX_TEXT: Record<string, string> = {
  InvalidSymbol: 'A character that JSON does not allow here',
  InvalidNumberFormat: 'Not a number JSON can read',
  PropertyNameExpected: 'A member name in double quotes was expected',
  ValueExpected: 'A value was expected',
  ColonExpected: 'A colon was expected',
  CommaExpected: 'A comma was expected',
  CloseBraceExpected: 'A closing } was expected',
  CloseBracketExpected: 'A closing ] was expected',
  EndOfFileExpected: 'Nothing may follow the JSON value',
  InvalidCommentToken: 'JSON has no comments',
  UnexpectedEndOfComment: 'JSON has no comments',
  UnexpectedEndOfString: 'A string is not closed',
  UnexpectedEndOfNumber: 'A number is cut short',
  InvalidUnicode: 'A \\u escape needs four hexadecimal digits',
  InvalidEscapeCharacter: 'Not an escape JSON knows',
  InvalidCharacter: 'A control character inside a string',
};

/** The line and column (from 1) of a character of the text. */
function placeOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

const rangeOf = (text: string, start: number, end: number): TextRange => ({ start, end, ...placeOf(text, start) });

/**
 * Reads the text as strict JSON (no comments, no trailing commas), naming every place it cannot be read with its line
 * and column, so the page can take the person there (JSON.parse stops at the first and says where only in words).
 */
export function readJson(text: string): ReadJson {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length === 0) return { value: JSON.parse(text) as unknown, problems: [] };
  return {
    value: undefined,
    problems: errors.map((error) => ({
      ...rangeOf(text, error.offset, error.offset + Math.max(error.length, 1)),
      message: SYNTAX_TEXT[printParseErrorCode(error.error)] ?? 'Not JSON',
    })),
  };
}

/** A JSON path as the API names it (`steps.3.on_timeout`), as segments (`['steps', 3, 'on_timeout']`). */
export const segmentsOf = (path: string): (string | number)[] =>
  path === '' ? [] : path.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));

/**
 * Where the value at `path` stands in the text: the member (name and value) when it is one; the nearest enclosing value
 * that exists when it does not (a missing `next` points at its step). Undefined when the text is not JSON.
 */
export function rangeOfPath(text: string, path: string): TextRange | undefined {
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  if (!root) return undefined;
  const segments = segmentsOf(path);
  for (let length = segments.length; length >= 0; length -= 1) {
    const node: Node | undefined = findNodeAtLocation(root, segments.slice(0, length));
    if (!node) continue;
    const shown = node.parent?.type === 'property' ? node.parent : node;
    return rangeOf(text, shown.offset, shown.offset + shown.length);
  }
  return undefined;
}

/**
 * Selects a range of a textarea and brings it into view: the caret moves to its start first, so the browser scrolls
 * there when the textarea takes the focus, then the whole range is selected.
 */
export function selectInTextarea(textarea: HTMLTextAreaElement, range: TextRange): void {
  textarea.setSelectionRange(range.start, range.start);
  textarea.blur();
  textarea.focus();
  textarea.setSelectionRange(range.start, range.end);
  const lineHeight = Number.parseFloat(getComputedStyle(textarea).lineHeight) || 18;
  textarea.scrollTop = Math.max(0, (range.line - 3) * lineHeight);
}
