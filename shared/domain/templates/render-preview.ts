import { notFound } from '../../errors.js';
import type { Clock } from '../../ports.js';
import type { ContactStore } from '../contacts/contact-store.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { findTemplate } from './get-template.js';
import { renderEmail } from './render-email.js';
import type { RenderPreviewBody } from './schemas.js';

interface Deps {
  clock: Clock;
  templates: Parameters<typeof findTemplate>[0]['templates'];
  contacts: ContactStore;
  settings: SettingsStore;
  config: { PUBLIC_BASE_URL: string };
}

/**
 * POST /client/email-templates/{id}/render-preview. Template, contact and (with default vars) settings are read in
 * one parallel wave, then rendered by `renderEmail`, the sender's own path.
 */
export async function renderPreview(deps: Deps, clientId: number, templateId: number, body: RenderPreviewBody) {
  const [template, contact, bundle] = await Promise.all([
    findTemplate(deps, clientId, templateId),
    body.contact_id !== undefined ? deps.contacts.get(clientId, body.contact_id) : Promise.resolve(undefined),
    body.include_default_vars ? deps.settings.load(clientId, quotaMonthOf(deps.clock.now())) : Promise.resolve(undefined),
  ]);
  if (body.contact_id !== undefined && !contact) throw notFound('contact_id', 'Contact not found');
  const rendered = renderEmail({
    template,
    contact,
    branding: bundle && {
      settings: bundle.settings,
      client: bundle.client,
      links: { publicBaseUrl: deps.config.PUBLIC_BASE_URL },
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
export type RenderedPreview = Awaited<ReturnType<typeof renderPreview>>;
