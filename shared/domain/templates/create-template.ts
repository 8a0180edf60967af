import type { Clock, Ids } from '../../platform.js';
import type { TemplateBody } from './schemas.js';
import { assertSavableTemplate } from './template-save-check.js';
import {
  CLIENT_TEMPLATE_ID_OFFSET,
  TEMPLATE_TYPES,
  type TemplateRecord,
  type TemplateStore,
} from './template-store.js';
import { toTemplateView, type TemplateView } from './template-view.js';

interface Deps {
  clock: Clock;
  ids: Ids;
  templates: TemplateStore;
}

/** Reserves a client template id (above the system range). */
export const nextClientTemplateId = async (ids: Ids): Promise<number> =>
  CLIENT_TEMPLATE_ID_OFFSET + (await ids.next('template'));

/** POST /client/email-templates: a client-owned (type 2) template; every part must pass DESIGN.md §6. */
export async function createTemplate(deps: Deps, clientId: number, body: TemplateBody): Promise<TemplateView> {
  assertSavableTemplate({
    subject: body.subject,
    preview_text: body.preview_text,
    html_body: body.html_body,
    text_body: body.text_body,
  });
  const now = deps.clock.now().toISOString();
  const template: TemplateRecord = {
    id: await nextClientTemplateId(deps.ids),
    client_id: clientId,
    type: TEMPLATE_TYPES.client,
    name: body.name,
    subject: body.subject,
    preview_text: body.preview_text,
    html_body: body.html_body,
    text_body: body.text_body,
    created_at: now,
    updated_at: now,
  };
  await deps.templates.create(template);
  return toTemplateView(template);
}
