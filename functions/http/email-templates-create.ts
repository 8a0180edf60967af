import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { createTemplate } from '../../shared/domain/templates/create-template.js';
import { TemplateBody } from '../../shared/domain/templates/schemas.js';

/** POST /client/email-templates — a client-owned template (type 2). */
export const handler = jsonApi({ body: TemplateBody }, async ({ body }, { deps, clientId }) =>
  created(await createTemplate(deps, clientId, body), 'Template created'),
);
