import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { domainStore } from '../../shared/composition/providers/domain-store.js';
import { domainSettingsOf } from '../../shared/composition/domain-settings.js';
import { listDomains } from '../../shared/domain/domains/list-domains.js';
import { DomainList, DomainListMeta } from '../../shared/domain/domains/schemas.js';
import { MAX_DOMAINS } from '../../shared/public/domain-rules.js';

/** GET /client/domains — the client's sending domains, by id. */
export const handler = jsonApi(
  {
    summary: 'List sending domains',
    description:
      "The client's sending domains in every state, by id, each with the DNS records to publish. Mail goes From a " +
      'verified domain only; with none verified the client sends from the onboarding sender to its own dashboard ' +
      'users (the sandbox).',
    responses: { 200: { data: DomainList, meta: DomainListMeta } },
  },
  [domainStore],
  async (_input, { deps, clientId }) => {
    const domains = await listDomains({ ...deps, domainSettings: domainSettingsOf(deps.config) }, clientId);
    return ok({ domains }, 'OK', { total: domains.length, max_domains: MAX_DOMAINS });
  },
);
