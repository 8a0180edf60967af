import { notFound } from '../../errors.js';
import type { Clock } from '../../ports.js';
import type { ContactStore } from '../contacts/contact-store.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { findTemplate } from './get-template.js';
import { renderTemplate, toSingleLine } from './render-template.js';
import type { RenderPreviewBody } from './schemas.js';
import { assertSafeTemplates } from './template-safety.js';
import { contactVars, defaultVars, resolveVars } from './template-vars.js';

interface Deps {
  clock: Clock;
  templates: Parameters<typeof findTemplate>[0]['templates'];
  contacts: ContactStore;
  settings: SettingsStore;
  config: { PUBLIC_BASE_URL: string };
}

/**
 * POST /client/email-templates/{id}/render-preview. Template, contact and (with default vars) settings are read in
 * one parallel wave; all four parts are checked against DESIGN.md §6 before any is compiled; HTML escapes values.
 */
export async function renderPreview(deps: Deps, clientId: number, templateId: number, body: RenderPreviewBody) {
  const [template, contact, bundle] = await Promise.all([
    findTemplate(deps, clientId, templateId),
    body.contact_id !== undefined ? deps.contacts.get(clientId, body.contact_id) : Promise.resolve(undefined),
    body.include_default_vars ? deps.settings.load(clientId, quotaMonthOf(deps.clock.now())) : Promise.resolve(undefined),
  ]);
  if (body.contact_id !== undefined && !contact) throw notFound('contact_id', 'Contact not found');
  const parts = {
    subject: template.subject,
    preview_text: template.preview_text,
    html_body: template.html_body,
    text_body: template.text_body,
  };
  assertSafeTemplates(parts);
  const vars = resolveVars({
    contact: contact ? contactVars(contact) : undefined,
    defaults: bundle ? defaultVars(bundle.settings, bundle.client, { publicBaseUrl: deps.config.PUBLIC_BASE_URL }) : undefined,
    vars: body.vars,
  });
  return {
    template_id: template.id,
    template_type: template.type,
    contact_id: contact?.id ?? null,
    include_default_vars: body.include_default_vars,
    resolved_vars: vars,
    subject: toSingleLine(renderTemplate(parts.subject, vars, 'text', 'subject')),
    preview_text: renderTemplate(parts.preview_text, vars, 'text', 'preview_text'),
    html_body: renderTemplate(parts.html_body, vars, 'html', 'html_body'),
    text_body: renderTemplate(parts.text_body, vars, 'text', 'text_body'),
  };
}
export type RenderedPreview = Awaited<ReturnType<typeof renderPreview>>;
