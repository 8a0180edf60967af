import { z } from 'zod';
import { TEMPLATE_TYPES } from './template-store.js';

/** `{id}` of the template paths; anything that is not a plain id cannot name a template (→ 404, id 0). */
export const TemplateIdParams = z.object({
  id: z.string().transform((v) => (/^\d{1,15}$/.test(v) ? Number(v) : 0)),
});

const text = (max: number, label: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${label} is required` : `${label} must be a string`) })
    .max(max, { message: `Must be at most ${max} characters`, abort: true });
const required = (max: number, label: string) =>
  text(max, label).refine((v) => v.trim() !== '', { message: `${label} must not be empty`, params: { condition: 'required' } });

/** Content of a client template. name, subject and html_body are required; the other parts default to "". */
export const TemplateBody = z.object({
  name: required(200, 'name').transform((v) => v.trim()),
  subject: required(998, 'subject'),
  preview_text: text(500, 'preview_text').optional().default(''),
  html_body: required(512_000, 'html_body'),
  text_body: text(256_000, 'text_body').optional().default(''),
});
export type TemplateBody = z.output<typeof TemplateBody>;

/** PATCH: any subset of the content. */
export const TemplatePatch = z.object({
  name: required(200, 'name').transform((v) => v.trim()).optional(),
  subject: required(998, 'subject').optional(),
  preview_text: text(500, 'preview_text').optional(),
  html_body: required(512_000, 'html_body').optional(),
  text_body: text(256_000, 'text_body').optional(),
});
export type TemplatePatch = z.output<typeof TemplatePatch>;

const page = z.int({ error: 'Must be an integer' }).min(1, 'Must be at least 1');

/** POST /client/email-templates/list — filters travel in the body (SPEC.md). */
export const TemplateListBody = z.object({
  q: z.string({ error: 'Must be a string' }).trim().max(200, 'Must be at most 200 characters').optional(),
  type: z
    .literal([TEMPLATE_TYPES.system, TEMPLATE_TYPES.client], {
      error: `Must be ${TEMPLATE_TYPES.system} (system) or ${TEMPLATE_TYPES.client} (client)`,
    })
    .optional(),
  page: page.optional().default(1),
  per_page: page.max(100, 'Must be at most 100').optional().default(20),
});
export type TemplateListBody = z.output<typeof TemplateListBody>;

/** POST /client/email-templates/{id}/render-preview */
export const RenderPreviewBody = z.object({
  contact_id: z.int({ error: 'Must be a contact id (integer)' }).min(1, 'Must be a contact id').optional(),
  include_default_vars: z.boolean({ error: 'Must be a boolean' }).optional().default(true),
  vars: z.record(z.string(), z.unknown(), { error: 'Must be an object' }).optional().default({}),
});
export type RenderPreviewBody = z.output<typeof RenderPreviewBody>;
