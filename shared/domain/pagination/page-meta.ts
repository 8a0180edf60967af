import * as z from 'zod';

const count = z.int().min(0);

/** `meta` of a numbered page (template list, execution list, customization audit): where the page is in the whole. */
export const PageMeta = z.object({
  page: z.int().min(1).meta({ description: 'This page, from 1' }),
  per_page: z.int().min(1).max(100),
  total: count.meta({ description: 'Items matching the filters' }),
  total_pages: count,
});
export type PageMeta = z.output<typeof PageMeta>;

/** The page meta of `total` items cut in pages of `perPage`. */
export const pageMetaOf = (page: number, perPage: number, total: number): PageMeta => ({
  page,
  per_page: perPage,
  total,
  total_pages: Math.ceil(total / perPage),
});
