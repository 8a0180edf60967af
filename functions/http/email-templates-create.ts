import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { createTemplate } from '../../shared/domain/templates/create-template.js';
import { TemplateBody } from '../../shared/domain/templates/schemas.js';

/** POST /client/email-templates — a client-owned template (type 2). */
export const handler = jsonApi(
  { body: TemplateBody },
  [templateStore, ids, clock],
  async ({ body }, { deps, clientId }) =>
    created(await createTemplate(deps, clientId, body), 'Template created'),
);
