import * as z from '../../validation/zod.js';
import { issueCondition } from '../../validation/issue-items.js';
import { PageMeta, pageMetaOf } from './page-meta.js';

/**
 * Numbered pages reach at most this many items (page × per_page): page k of a list otherwise reads every item before
 * it. Past it, a list is followed by `next_cursor`, which reads one page's worth whatever the position.
 */
export const MAX_PAGED_ITEMS = 1000;

/**
 * How many matches past a numbered page a listing reads to count `total` (exact when the list ends within it;
 * otherwise `total_is_exact` is false and `total` is a lower bound). A cursor page reads one item past the page.
 */
export const TOTAL_LOOKAHEAD = 100;

/** The rule in words, for the document. */
export const PAGE_WINDOW_RULE = `page × per_page must be at most ${MAX_PAGED_ITEMS} (a 422 \`max\` at \`page\`); further on, follow \`next_cursor\``;

/** The message of a page beyond the window; undefined when the page is within it. */
export function pageWindowProblem(page: number, perPage: number): string | undefined {
  if (page * perPage <= MAX_PAGED_ITEMS) return undefined;
  return `Must be at most ${Math.floor(MAX_PAGED_ITEMS / perPage)} with per_page ${perPage} (page × per_page ≤ ${MAX_PAGED_ITEMS}); follow next_cursor beyond`;
}

/**
 * The one rule of a bounded list's position: without a cursor, `page` stays within the window (a 422 `max`); with a
 * cursor, `page` is not given (a 422 `format`). A page past MAX_PAGED_ITEMS itself is left to the field's own bound.
 */
export function pagePositionProblem(q: {
  page: number;
  per_page: number;
  cursor?: string | undefined;
}): { condition: 'max' | 'format'; message: string } | undefined {
  if (q.cursor !== undefined)
    return q.page > 1 ? { condition: 'format', message: 'Must not be given with cursor' } : undefined;
  if (q.page > MAX_PAGED_ITEMS) return undefined;
  const message = pageWindowProblem(q.page, q.per_page);
  return message ? { condition: 'max', message } : undefined;
}

/** The list query's check of that rule, reported at `page`. */
export const pagePositionCheck = <Q extends { page: number; per_page: number; cursor?: string | undefined }>() =>
  z.superRefine<Q>((q, ctx) => {
    const problem = pagePositionProblem(q);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: ['page'],
        message: problem.message,
        params: issueCondition(problem.condition),
      });
  });

/** `meta` of a bounded list: the numbered page, and whether `total` counted every match. */
export const BoundedPageMeta = z.extend(PageMeta, {
  total_is_exact: z.boolean().check(
    z.meta({
      description: `false: at least \`total\` items match (a listing counts at most ${TOTAL_LOOKAHEAD} past the page)`,
    }),
  ),
});
export type BoundedPageMeta = z.output<typeof BoundedPageMeta>;

/** The meta of page `page` when `counted` matches were seen up to here and beyond, `exhausted` when the list ended. */
export const boundedPageMetaOf = (
  page: number,
  perPage: number,
  counted: number,
  exhausted: boolean,
): BoundedPageMeta => ({
  ...pageMetaOf(page, perPage, counted),
  total_is_exact: exhausted,
});

/** `cursor` of a request: the previous page's `next_cursor`, unchanged (at most `maxLength` characters). */
export const cursorField = (maxLength = 400) =>
  z.optional(
    z.string({ error: 'Must be a string' }).check(
      z.maxLength(maxLength, 'Not a cursor of this list'),
      z.meta({
        description:
          '`next_cursor` of the previous page, unchanged; depends on stored data: any other value is a 422 `format`. With it, `page` is not given',
      }),
    ),
  );

/** `next_cursor` of an answer. */
export const NextCursor = z.nullable(z.string()).check(
  z.meta({
    description: 'Pass as `cursor` for the next page (one page read, whatever the position); null on the last page',
  }),
);
