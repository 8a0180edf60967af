import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { domainStore } from '../../shared/composition/providers/domain-store.js';
import { domainSettingsOf } from '../../shared/composition/domain-settings.js';
import { getDomain } from '../../shared/domain/domains/list-domains.js';
import { DomainIdParams, DomainView } from '../../shared/domain/domains/schemas.js';

/** GET /client/domains/{id} — one sending domain with its records and state. */
export const handler = jsonApi(
  {
    summary: 'Get a sending domain',
    description:
      'The domain as last checked: its status, the DNS records to publish with the status of each, its DMARC ' +
      "policy and when it is checked next. Another account's domain: 404.",
    params: DomainIdParams,
    responses: { 200: DomainView },
    errors: [404],
  },
  [domainStore],
  async ({ params }, { deps, clientId }) =>
    ok(await getDomain({ ...deps, domainSettings: domainSettingsOf(deps.config) }, clientId, params.id)),
);
