import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { findTemplate } from '../../shared/domain/templates/get-template.js';
import { TemplateGetQuery, TemplateIdParams } from '../../shared/domain/templates/schemas.js';
import { toTemplateView } from '../../shared/domain/templates/template-view.js';

/** GET /client/email-templates/{id} — a system template or one of the client's (deleted ones with include_deleted). */
export const handler = jsonApi(
  { params: TemplateIdParams, query: TemplateGetQuery },
  [templateStore],
  async ({ params, query }, { deps, clientId }) =>
    ok(toTemplateView(await findTemplate(deps, clientId, params.id, { includeDeleted: query.include_deleted }))),
);
