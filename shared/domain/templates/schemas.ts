import * as z from '../../validation/zod.js';
import { cursorField, MAX_PAGED_ITEMS, PAGE_WINDOW_RULE, pagePositionCheck } from '../pagination/bounded-page.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { boundedObject } from '../free-form/bounded-object.js';
import { TEMPLATE_TYPES } from './template-store.js';
import { issueCondition } from '../../validation/issue-items.js';

/** `{id}` of the template paths; anything that is not a plain id cannot name a template (→ 404, id 0). */
export const TemplateIdParams = z.object({
  id: plainIdParam(15, 'The template id (system templates below 1000)'),
});

/**
 * Byte limits (UTF-8) of the large parts. Together with the short fields they keep a template item — and the
 * sent e-mail that copies it — below DynamoDB's 400 KB item limit: 256 000 + 100 000 + 998×4 + 500×4 + 200×4
 * ≈ 363 KB, leaving room for keys and metadata. Gmail clips HTML over 102 KB, so 256 KB is generous.
 */
export const MAX_HTML_BODY_BYTES = 256_000;
export const MAX_TEXT_BODY_BYTES = 100_000;

const text = (max: number, label: string, maxBytes?: number) =>
  z.string({ error: (i) => (i.input === undefined ? `${label} is required` : `${label} must be a string`) }).check(
    z.maxLength(max, { message: `Must be at most ${max} characters`, abort: true }),
    z.refine((v: string) => maxBytes === undefined || Buffer.byteLength(v, 'utf8') <= maxBytes, {
      message: `Must be at most ${maxBytes} bytes (UTF-8)`,
      params: issueCondition('max'),
      abort: true,
    }),
  );
/** Non-empty after trim; the document says so with `minLength` and a pattern that needs one non-space character. */
const required = (max: number, label: string, maxBytes?: number) =>
  text(max, label, maxBytes).check(
    z.refine((v: string) => v.trim() !== '', {
      message: `${label} must not be empty`,
      params: issueCondition('required'),
    }),
    z.meta({ minLength: 1, pattern: '\\S' }),
  );

/** The template rule (DESIGN.md §6) for the document: content JSON Schema cannot check. */
const TEMPLATE_RULE =
  'subject, preview_text, html_body and text_body may contain only interpolations such as `<%= it.contact.first_name %>` ' +
  '(optionally `?? "default"`); any other `<% %>` tag is a 422 `unsafe`. html_body is also read as HTML (a real parser, ' +
  'entities decoded): a `<script>`, `<iframe>`, `<frame>`, `<object>`, `<embed>`, `<applet>` or `<base>` element, an ' +
  '`on…` event-handler attribute, `srcdoc`, a refresh `<meta>`, a `javascript:`/`vbscript:` URL in any URL attribute ' +
  "(href, src, action, formaction, xlink:href, srcset, …), a `data:` URL other than an image's, or an interpolation in a " +
  'tag or attribute name is a 422 `unsafe` at `html_body` naming the line.';

/** Content of a client template. name, subject and html_body are required; the other parts default to "". */
export const TemplateBody = z
  .object({
    name: z.pipe(
      required(200, 'name'),
      z.transform((v: string) => v.trim()),
    ),
    subject: required(998, 'subject'),
    preview_text: z._default(z.optional(text(500, 'preview_text')), ''),
    html_body: required(MAX_HTML_BODY_BYTES, 'html_body', MAX_HTML_BODY_BYTES),
    text_body: z._default(z.optional(text(MAX_TEXT_BODY_BYTES, 'text_body', MAX_TEXT_BODY_BYTES)), ''),
  })
  .check(z.meta({ description: TEMPLATE_RULE }));
export type TemplateBody = z.output<typeof TemplateBody>;

/** PATCH: any subset of the content. */
export const TemplatePatch = z
  .object({
    name: z.optional(
      z.pipe(
        required(200, 'name'),
        z.transform((v: string) => v.trim()),
      ),
    ),
    subject: z.optional(required(998, 'subject')),
    preview_text: z.optional(text(500, 'preview_text')),
    html_body: z.optional(required(MAX_HTML_BODY_BYTES, 'html_body', MAX_HTML_BODY_BYTES)),
    text_body: z.optional(text(MAX_TEXT_BODY_BYTES, 'text_body', MAX_TEXT_BODY_BYTES)),
  })
  .check(z.meta({ description: TEMPLATE_RULE }));
export type TemplatePatch = z.output<typeof TemplatePatch>;

const page = z.int({ error: 'Must be an integer' }).check(z.gte(1, 'Must be at least 1'));

/** POST /client/email-templates/list — filters travel in the body (SPEC.md). */
export const TemplateListBody = z
  .object({
    q: z.optional(
      z.string({ error: 'Must be a string' }).check(z.trim(), z.maxLength(200, 'Must be at most 200 characters')),
    ),
    type: z.optional(
      z.literal([TEMPLATE_TYPES.system, TEMPLATE_TYPES.client], {
        error: `Must be ${TEMPLATE_TYPES.system} (system) or ${TEMPLATE_TYPES.client} (client)`,
      }),
    ),
    include_deleted: z._default(z.optional(z.boolean({ error: 'Must be a boolean' })), false),
    page: z._default(
      z.optional(
        page.check(
          z.lte(MAX_PAGED_ITEMS, `Must be at most ${MAX_PAGED_ITEMS}`),
          z.meta({ description: PAGE_WINDOW_RULE }),
        ),
      ),
      1,
    ),
    per_page: z._default(z.optional(page.check(z.lte(100, 'Must be at most 100'))), 20),
    cursor: cursorField(),
  })
  .check(pagePositionCheck());
export type TemplateListBody = z.output<typeof TemplateListBody>;

/** GET /client/email-templates/{id}?include_deleted=true — a soft-deleted template is a 404 without the flag. */
export const TemplateGetQuery = z.object({
  include_deleted: z.pipe(
    z.optional(z.enum(['true', 'false'], { error: 'Must be true or false' })),
    z.transform((v: 'true' | 'false' | undefined) => v === 'true'),
  ),
});

/**
 * Unsaved content to render in place of the stored parts (an editor's live preview): the same limits as PATCH, so a
 * draft the preview accepts is one the save accepts. Nothing is stored.
 */
export const TemplateDraft = z
  .object({
    subject: z.optional(required(998, 'subject')),
    preview_text: z.optional(text(500, 'preview_text')),
    html_body: z.optional(required(MAX_HTML_BODY_BYTES, 'html_body', MAX_HTML_BODY_BYTES)),
    text_body: z.optional(text(MAX_TEXT_BODY_BYTES, 'text_body', MAX_TEXT_BODY_BYTES)),
  })
  .check(
    z.meta({
      description:
        "Unsaved parts rendered instead of the stored ones (an editor's live preview); absent parts are the stored ones. " +
        `Validated as PATCH validates them (errors keyed \`draft.<part>\`). ${TEMPLATE_RULE}`,
    }),
  );
export type TemplateDraft = z.output<typeof TemplateDraft>;

/** POST /client/email-templates/{id}/render-preview */
export const RenderPreviewBody = z.object({
  contact_id: z.optional(z.int({ error: 'Must be a contact id (integer)' }).check(z.gte(1, 'Must be a contact id'))),
  include_default_vars: z._default(z.optional(z.boolean({ error: 'Must be a boolean' })), true),
  vars: z._default(z.optional(boundedObject()), {}),
  draft: z.optional(TemplateDraft),
});
export type RenderPreviewBody = z.output<typeof RenderPreviewBody>;
