import * as z from '../../validation/zod.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { TEMPLATE_TYPES, type TemplateRecord, type TemplateSummary } from './template-store.js';
import { NextCursor } from '../pagination/bounded-page.js';

/** The zero time Go-style nullable timestamps use for "not set". */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** SPEC.md's `deleted_at` (OpenAPI `DeletedAt`): `{time, valid}`, the zero time with `valid: false` when not deleted. */
export const DeletedAt = z
  .object({
    time: z.iso.datetime().check(z.meta({ examples: [ZERO_TIME] })),
    valid: z.boolean().check(z.meta({ description: 'false: not deleted (`time` is the zero time)' })),
  })
  .check(z.meta({ id: 'DeletedAt', description: 'A nullable timestamp in the Go style.' }));
export type DeletedAt = z.output<typeof DeletedAt>;

export const deletedAtOf = (deletedAt: string | undefined | null): DeletedAt =>
  deletedAt ? { time: deletedAt, valid: true } : { time: ZERO_TIME, valid: false };

const TemplateFields = z.object({
  id: z.int().check(z.gte(1), z.meta({ description: 'System templates have ids below 1000' })),
  user_id: z.int().check(z.gte(0), z.meta({ description: 'The owning client; 0 for system templates' })),
  name: z.string(),
  subject: z.string(),
  preview_text: z.string(),
  html_body: z.string(),
  text_body: z.string(),
  type: z
    .literal([TEMPLATE_TYPES.system, TEMPLATE_TYPES.client])
    .check(z.meta({ description: '1 a system template (read-only), 2 a template the client owns' })),
  source_template: z
    .nullable(z.object({ id: z.int(), name: z.string(), subject: z.string(), updated_at: UtcTimestamp }))
    .check(z.meta({ description: 'Summary of the template this one was copied from' })),
  source_template_id: z.nullable(z.int()),
  created_at: UtcTimestamp,
  updated_at: UtcTimestamp,
  deleted_at: DeletedAt,
});

/** SPEC.md's Email template (OpenAPI `EmailTemplate`). */
export const TemplateView = TemplateFields.check(
  z.meta({
    id: 'EmailTemplate',
    description: 'Message content: every part is a template of `<%= it.path %>` interpolations.',
  }),
);
export type TemplateView = z.output<typeof TemplateView>;

/** The SPEC.md Email template; `user_id` is the owning client (0 for system templates). */
export function toTemplateView(t: TemplateRecord): TemplateView {
  return {
    id: t.id,
    user_id: t.client_id,
    name: t.name,
    subject: t.subject,
    preview_text: t.preview_text,
    html_body: t.html_body,
    text_body: t.text_body,
    type: t.type,
    source_template: t.source_template ?? null,
    source_template_id: t.source_template_id ?? null,
    created_at: t.created_at,
    updated_at: t.updated_at,
    deleted_at: deletedAtOf(t.deleted_at),
  };
}

/** A template as the list shows it: every field of EmailTemplate but the bodies (GET /client/email-templates/{id} has them). */
export const TemplateSummaryView = z.omit(TemplateFields, { html_body: true, text_body: true }).check(
  z.meta({
    id: 'EmailTemplateSummary',
    description: 'An e-mail template without its bodies (`html_body`, `text_body`): read one template for them.',
  }),
);
export type TemplateSummaryView = z.output<typeof TemplateSummaryView>;

export function toTemplateSummaryView(t: TemplateSummary): TemplateSummaryView {
  const { html_body: _html, text_body: _text, ...view } = toTemplateView({ ...t, html_body: '', text_body: '' });
  return view;
}

/** `data` of POST /client/email-templates/list (its `meta` is a BoundedPageMeta). */
export const TemplateList = z.object({ templates: z.array(TemplateSummaryView), next_cursor: NextCursor });
