import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { createTemplate } from '../../shared/domain/templates/create-template.js';
import { TemplateBody } from '../../shared/domain/templates/schemas.js';
import { TemplateView } from '../../shared/domain/templates/template-view.js';

/** POST /client/email-templates — a client-owned template (type 2). */
export const handler = jsonApi(
  {
    summary: 'Create an e-mail template',
    description:
      'A client-owned template (type 2). `name`, `subject` and `html_body` are required. Every part may contain only ' +
      'interpolations of dotted variable paths (`<%= it.contact.first_name %>`, optionally `?? "default"`); anything ' +
      'else is refused with 422 `unsafe`.',
    body: TemplateBody,
    responses: { 201: TemplateView },
  },
  [templateStore, ids, clock],
  async ({ body }, { deps, clientId }) => created(await createTemplate(deps, clientId, body), 'Template created'),
);
