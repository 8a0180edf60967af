import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { domainStore } from '../../shared/composition/providers/domain-store.js';
import { ids } from '../../shared/composition/providers/ids.js';
import { domainSettingsOf } from '../../shared/composition/domain-settings.js';
import { claimDomain } from '../../shared/domain/domains/claim-domain.js';
import { DomainBody, DomainView } from '../../shared/domain/domains/schemas.js';
import { CHALLENGE_LABEL, MAX_DOMAINS, PROOF_WINDOW_HOURS } from '../../shared/public/domain-rules.js';

/** POST /client/domains — a claim of a sending domain, awaiting its ownership record. */
export const handler = jsonApi(
  {
    summary: 'Add a sending domain',
    description:
      'Claims a domain to send From. The answer holds one record to publish: a TXT record at ' +
      `\`${CHALLENGE_LABEL}.<domain>\` whose value is this claim's own; publish it within ${PROOF_WINDOW_HOURS} h, ` +
      'then call POST /client/domains/{id}/verify (the service also checks by itself). Nothing is asked of DNS or ' +
      'SES yet, and an unproven claim blocks nobody: the first account to publish its record holds the domain. ' +
      'A domain you already added: 409 `unique` (naming its id). A domain another account proved: 409 `unique`. ' +
      `At most ${MAX_DOMAINS} domains (a claim that failed before proof does not count): 409 \`max\`. Not a domain ` +
      "name: 422 `format`. One of the service's own domains, a parent or subdomain of one, or amazonses.com: 422 " +
      '`unsafe`. Only exactly this domain is verified: a subdomain is added and verified on its own.',
    body: DomainBody,
    responses: { 201: DomainView },
    errors: [409],
  },
  [domainStore, ids, clock],
  async ({ body }, { deps, clientId }) =>
    created(
      await claimDomain({ ...deps, domainSettings: domainSettingsOf(deps.config) }, clientId, body),
      'Domain added; publish its ownership record, then verify it',
    ),
);
