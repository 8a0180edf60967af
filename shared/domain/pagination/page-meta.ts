import * as z from '../../validation/zod.js';

const count = z.int().check(z.gte(0));

/** `meta` of a numbered page (template list, execution list, customization audit): where the page is in the whole. */
export const PageMeta = z.object({
  page: z.int().check(z.gte(1), z.meta({ description: 'This page, from 1' })),
  per_page: z.int().check(z.gte(1), z.lte(100)),
  total: count.check(z.meta({ description: 'Items matching the filters' })),
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
