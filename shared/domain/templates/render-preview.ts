import * as z from '../../validation/zod.js';
import { linksBaseUrlOf } from '../links/links-base-url.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import type { ContactStore } from '../contacts/contact-store.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { findTemplate } from './get-template.js';
import { renderEmail } from './render-email.js';
import { TemplateDraft, type RenderPreviewBody } from './schemas.js';
import { assertSavableTemplate } from './template-save-check.js';
import { TEMPLATE_TYPES } from './template-store.js';
import { effectiveSenderOf } from '../domains/effective-sender.js';
import { serviceSendersOf, type ServiceSendersConfig } from '../domains/service-senders.js';

/** SPEC.md's Rendered template preview (OpenAPI `RenderedPreview`). */
export const RenderedPreview = z
  .object({
    template_id: z.int().check(z.gte(1)),
    template_type: z.literal([TEMPLATE_TYPES.system, TEMPLATE_TYPES.client]),
    contact_id: z.nullable(z.int()).check(z.meta({ description: 'The contact whose variables were used' })),
    include_default_vars: z.boolean(),
    resolved_vars: z
      .record(z.string(), z.unknown())
      .check(z.meta({ description: 'The variables finally used (`it.*`)' })),
    subject: z.string(),
    preview_text: z.string(),
    html_body: z.string(),
    text_body: z.string(),
  })
  .check(
    z.meta({
      id: 'RenderedPreview',
      description: 'A saved template rendered with a contact and variables; nothing is sent.',
    }),
  );
export type RenderedPreview = z.output<typeof RenderedPreview>;

interface Deps {
  clock: Clock;
  templates: Parameters<typeof findTemplate>[0]['templates'];
  contacts: ContactStore;
  settings: SettingsStore;
  config: { PUBLIC_BASE_URL: string; LINKS_BASE_URL?: string | undefined } & ServiceSendersConfig;
}

/**
 * POST /client/email-templates/{id}/render-preview. Template, contact and (with default vars) settings are read in
 * one parallel wave, then rendered by `renderEmail`, the sender's own path — with the `draft`'s parts, when given, in
 * place of the stored ones (the template must still exist and be the client's: a draft previews an edit of it).
 */
export async function renderPreview(
  deps: Deps,
  clientId: number,
  templateId: number,
  body: RenderPreviewBody,
  draftKeyPrefix = 'draft.',
): Promise<RenderedPreview> {
  const [template, contact, bundle] = await Promise.all([
    findTemplate(deps, clientId, templateId),
    body.contact_id !== undefined ? deps.contacts.get(clientId, body.contact_id) : Promise.resolve(undefined),
    body.include_default_vars
      ? deps.settings.load(clientId, quotaMonthOf(deps.clock.now()))
      : Promise.resolve(undefined),
  ]);
  if (body.contact_id !== undefined && !contact) throw notFound('contact_id', 'Contact not found');
  // A draft's unsafe part is refused at its own key (`draft.html_body`, or the form's `html_body`), before anything is rendered.
  if (body.draft) assertSavableTemplate(body.draft, draftKeyPrefix);
  // The From the e-mail would go out with now, as the sender picks it.
  const sending =
    bundle?.client &&
    effectiveSenderOf({
      settings: bundle.settings,
      clientName: bundle.client.name,
      sender: bundle.sender,
      ...serviceSendersOf(deps.config),
    });
  const rendered = renderEmail({
    template: { ...template, ...definedParts(body.draft) },
    contact,
    branding: bundle && {
      settings: bundle.settings,
      client: bundle.client,
      links: { publicBaseUrl: linksBaseUrlOf(deps.config) },
      ...(sending ? { from: { address: sending.fromAddress, name: sending.fromName } } : {}),
    },
    vars: body.vars,
  });
  return {
    template_id: template.id,
    template_type: template.type,
    contact_id: contact?.id ?? null,
    include_default_vars: body.include_default_vars,
    resolved_vars: rendered.vars,
    subject: rendered.subject,
    preview_text: rendered.preview_text,
    html_body: rendered.html,
    text_body: rendered.text,
  };
}

/** The parts a draft gives (an absent part keeps the stored one). */
const definedParts = (draft: TemplateDraft | undefined): Partial<TemplateDraft> =>
  Object.fromEntries(Object.entries(draft ?? {}).filter(([, value]) => value !== undefined));

/**
 * The form of POST /client/email-templates/{id}/html (the editor's frame): the draft's HTML, and the contact to render
 * with. A form's fields are strings: the contact id is digits.
 */
export const TemplateHtmlForm = z.object({
  html_body: TemplateDraft.shape.html_body,
  contact_id: z.optional(
    z.pipe(
      z
        .string()
        .check(
          z.maxLength(15, 'Must be a contact id (digits)'),
          z.regex(/^\d{1,15}$/, 'Must be a contact id (digits)'),
          z.meta({ description: 'The contact whose variables are used' }),
        ),
      z.transform((v: string) => Number(v)),
    ),
  ),
});
export type TemplateHtmlForm = z.output<typeof TemplateHtmlForm>;

/**
 * POST /client/email-templates/{id}/html: the HTML render-preview gives, as the document the dashboard frames (the
 * stored template, or the form's `html_body` in its place; the client's branding, the contact's variables). The same
 * reads (one parallel wave) and the same checks: an unsafe draft is 422 at `html_body`.
 */
export async function renderPreviewHtml(
  deps: Deps,
  clientId: number,
  templateId: number,
  form: TemplateHtmlForm,
): Promise<string> {
  const body: RenderPreviewBody = {
    include_default_vars: true,
    vars: {},
    ...(form.contact_id === undefined ? {} : { contact_id: form.contact_id }),
    ...(form.html_body === undefined ? {} : { draft: { html_body: form.html_body } }),
  };
  return (await renderPreview(deps, clientId, templateId, body, '')).html_body;
}
