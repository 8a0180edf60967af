import type { ClientRecord } from '../clients/client-store.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { SettingsFields } from '../settings/settings-store.js';
import { renderTemplate, toSingleLine } from './render-template.js';
import { assertSafeTemplates } from './template-safety.js';
import {
  contactVars,
  defaultVars,
  resolveVars,
  type LinkOptions,
  type SenderIdentity,
  type TemplateVars,
} from './template-vars.js';

/** The four sources of an e-mail template (a stored template, a clone or a system template). */
export interface EmailTemplateParts {
  subject: string;
  preview_text: string;
  html_body: string;
  text_body: string;
}

/** The client's branding and sender defaults (`client.*`) and the message's links (`links.*`). */
export interface EmailBranding {
  settings?: SettingsFields;
  client?: ClientRecord;
  links: LinkOptions;
  /** The From the e-mail goes out with (the client's effective sender): `client.email_from_*` show it. */
  from?: SenderIdentity;
}

export interface RenderEmailInput {
  template: EmailTemplateParts;
  /** Absent: `contact.*` is empty (a preview without a contact). */
  contact?: ContactRecord;
  /** Absent: no `client.*` / `links.*` (a preview without default vars); the sender always gives it. */
  branding?: EmailBranding;
  /** Caller-given variables, deep-merged on top of everything else. */
  vars?: TemplateVars;
}

export interface RenderedEmail {
  subject: string;
  preview_text: string;
  html: string;
  text: string;
  /** Exactly the variables the parts were rendered with. */
  vars: TemplateVars;
}

/**
 * Renders one e-mail — the single path shared by render-preview and the sender. All four parts are checked against
 * DESIGN.md §6 before any is compiled (every unsafe part reported at once); HTML escapes values, the subject is
 * kept on one line.
 */
export function renderEmail(input: RenderEmailInput): RenderedEmail {
  const { template } = input;
  assertSafeTemplates({
    subject: template.subject,
    preview_text: template.preview_text,
    html_body: template.html_body,
    text_body: template.text_body,
  });
  const { branding } = input;
  const vars = resolveVars({
    contact: input.contact ? contactVars(input.contact) : undefined,
    defaults: branding ? defaultVars(branding.settings, branding.client, branding.links, branding.from) : undefined,
    vars: input.vars,
  });
  return {
    subject: toSingleLine(renderTemplate(template.subject, vars, 'text', 'subject')),
    preview_text: renderTemplate(template.preview_text, vars, 'text', 'preview_text'),
    html: renderTemplate(template.html_body, vars, 'html', 'html_body'),
    text: renderTemplate(template.text_body, vars, 'text', 'text_body'),
    vars,
  };
}
