import * as z from 'zod';
import { boundedObject } from '../free-form/bounded-object.js';
import { TEMPLATE_TYPES } from './template-store.js';

/** `{id}` of the template paths; anything that is not a plain id cannot name a template (→ 404, id 0). */
export const TemplateIdParams = z.object({
  id: z
    .string()
    .transform((v) => (/^\d{1,15}$/.test(v) ? Number(v) : 0))
    .meta({ description: 'The template id (system templates below 1000)' }),
});

/**
 * Byte limits (UTF-8) of the large parts. Together with the short fields they keep a template item — and the
 * sent e-mail that copies it — below DynamoDB's 400 KB item limit: 256 000 + 100 000 + 998×4 + 500×4 + 200×4
 * ≈ 363 KB, leaving room for keys and metadata. Gmail clips HTML over 102 KB, so 256 KB is generous.
 */
export const MAX_HTML_BODY_BYTES = 256_000;
export const MAX_TEXT_BODY_BYTES = 100_000;

const text = (max: number, label: string, maxBytes?: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${label} is required` : `${label} must be a string`) })
    .max(max, { message: `Must be at most ${max} characters`, abort: true })
    .refine((v) => maxBytes === undefined || Buffer.byteLength(v, 'utf8') <= maxBytes, {
      message: `Must be at most ${maxBytes} bytes (UTF-8)`,
      params: { condition: 'max' },
      abort: true,
    });
const required = (max: number, label: string, maxBytes?: number) =>
  text(max, label, maxBytes).refine((v) => v.trim() !== '', { message: `${label} must not be empty`, params: { condition: 'required' } });

/** Content of a client template. name, subject and html_body are required; the other parts default to "". */
export const TemplateBody = z.object({
  name: required(200, 'name').transform((v) => v.trim()),
  subject: required(998, 'subject'),
  preview_text: text(500, 'preview_text').optional().default(''),
  html_body: required(MAX_HTML_BODY_BYTES, 'html_body', MAX_HTML_BODY_BYTES),
  text_body: text(MAX_TEXT_BODY_BYTES, 'text_body', MAX_TEXT_BODY_BYTES).optional().default(''),
});
export type TemplateBody = z.output<typeof TemplateBody>;

/** PATCH: any subset of the content. */
export const TemplatePatch = z.object({
  name: required(200, 'name').transform((v) => v.trim()).optional(),
  subject: required(998, 'subject').optional(),
  preview_text: text(500, 'preview_text').optional(),
  html_body: required(MAX_HTML_BODY_BYTES, 'html_body', MAX_HTML_BODY_BYTES).optional(),
  text_body: text(MAX_TEXT_BODY_BYTES, 'text_body', MAX_TEXT_BODY_BYTES).optional(),
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
  include_deleted: z.boolean({ error: 'Must be a boolean' }).optional().default(false),
  page: page.optional().default(1),
  per_page: page.max(100, 'Must be at most 100').optional().default(20),
});
export type TemplateListBody = z.output<typeof TemplateListBody>;

/** GET /client/email-templates/{id}?include_deleted=true — a soft-deleted template is a 404 without the flag. */
export const TemplateGetQuery = z.object({
  include_deleted: z
    .enum(['true', 'false'], { error: 'Must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});

/** POST /client/email-templates/{id}/render-preview */
export const RenderPreviewBody = z.object({
  contact_id: z.int({ error: 'Must be a contact id (integer)' }).min(1, 'Must be a contact id').optional(),
  include_default_vars: z.boolean({ error: 'Must be a boolean' }).optional().default(true),
  vars: boundedObject().optional().default({}),
});
export type RenderPreviewBody = z.output<typeof RenderPreviewBody>;
