import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { findTemplate } from '../../shared/domain/templates/get-template.js';
import { TemplateGetQuery, TemplateIdParams } from '../../shared/domain/templates/schemas.js';
import { TemplateView, toTemplateView } from '../../shared/domain/templates/template-view.js';

/** GET /client/email-templates/{id} — a system template or one of the client's (deleted ones with include_deleted). */
export const handler = jsonApi(
  {
    summary: 'Get an e-mail template',
    description: "A system template or one of the client's; a deleted one only with `include_deleted=true`.",
    params: TemplateIdParams,
    query: TemplateGetQuery,
    responses: { 200: TemplateView },
    errors: [404],
  },
  [templateStore],
  async ({ params, query }, { deps, clientId }) =>
    ok(toTemplateView(await findTemplate(deps, clientId, params.id, { includeDeleted: query.include_deleted }))),
);
