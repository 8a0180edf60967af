import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { findTemplate } from '../../shared/domain/templates/get-template.js';
import { TemplateIdParams } from '../../shared/domain/templates/schemas.js';
import { toTemplateView } from '../../shared/domain/templates/template-view.js';

/** GET /client/email-templates/{id} — a system template or one of the client's (deleted ones too). */
export const handler = jsonApi({ params: TemplateIdParams }, async ({ params }, { deps, clientId }) =>
  ok(toTemplateView(await findTemplate(deps, clientId, params.id, { includeDeleted: true }))),
);
