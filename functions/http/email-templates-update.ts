import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { updateTemplate } from '../../shared/domain/templates/update-template.js';
import { TemplateIdParams, TemplatePatch } from '../../shared/domain/templates/schemas.js';
import { TemplateView } from '../../shared/domain/templates/template-view.js';

/** PATCH /client/email-templates/{id} — client templates only (system templates: 403). */
export const handler = jsonApi(
  {
    summary: 'Update an e-mail template',
    description: 'Any subset of the content of a live client template; system templates are read-only (403).',
    params: TemplateIdParams,
    body: TemplatePatch,
    responses: { 200: TemplateView },
    errors: [404],
  },
  [templateStore, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await updateTemplate(deps, clientId, params.id, body), 'Template updated'),
);
