import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { deleteTemplate } from '../../shared/domain/templates/delete-template.js';
import { TemplateIdParams } from '../../shared/domain/templates/schemas.js';
import { TemplateView } from '../../shared/domain/templates/template-view.js';

/** DELETE /client/email-templates/{id} — soft delete; the response shows deleted_at. */
export const handler = jsonApi(
  {
    summary: 'Delete an e-mail template',
    description:
      'Soft deletion: `deleted_at` is set and the template stays readable with `include_deleted`. System templates ' +
      "are read-only (403); a template a workflow customization or a live or paused journey's send step uses " +
      'cannot be deleted (409 `state`).',
    params: TemplateIdParams,
    responses: { 200: TemplateView },
    errors: [404, 409],
  },
  [templateStore, journeyStore, clock],
  async ({ params }, { deps, clientId }) => ok(await deleteTemplate(deps, clientId, params.id), 'Template deleted'),
);
