import type { TemplateRecord } from './template-store.js';

/** The zero time Go-style nullable timestamps use for "not set". */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** `deleted_at` as SPEC.md shows it: `{time, valid}`; not deleted is the zero time with `valid: false`. */
export const deletedAtOf = (deletedAt: string | undefined | null) =>
  deletedAt ? { time: deletedAt, valid: true } : { time: ZERO_TIME, valid: false };

/** The SPEC.md Email template; `user_id` is the owning client (0 for system templates). */
export function toTemplateView(t: TemplateRecord) {
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
export type TemplateView = ReturnType<typeof toTemplateView>;
