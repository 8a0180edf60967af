import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { dnsResolver } from '../../shared/composition/providers/dns-resolver.js';
import { domainStore } from '../../shared/composition/providers/domain-store.js';
import { senderIdentities } from '../../shared/composition/providers/sender-identities.js';
import { domainSettingsOf } from '../../shared/composition/domain-settings.js';
import { checkDomain } from '../../shared/domain/domains/check-domain.js';
import { DomainIdParams, DomainView } from '../../shared/domain/domains/schemas.js';
import {
  CHECK_BACKOFF_MINUTES,
  CHECK_NOW_MIN_SECONDS,
  PROOF_WINDOW_HOURS,
  VERIFY_WINDOW_HOURS,
} from '../../shared/public/domain-rules.js';

/** POST /client/domains/{id}/verify — checks the domain now. */
export const handler = jsonApi(
  {
    summary: 'Check a sending domain now',
    description:
      'Looks up the domain now instead of waiting for the next scheduled check (every ' +
      `${CHECK_BACKOFF_MINUTES.join(', ')} minutes, then hourly). awaiting_proof: finding this claim's ownership ` +
      "record proves it (another claim's value proves nothing); the DKIM, MAIL FROM and DMARC records then appear " +
      'and status becomes verifying. If another account proved the domain first: failed, `claimed_elsewhere`. ' +
      `Without the record after ${PROOF_WINDOW_HOURS} h: failed, \`challenge_not_found\`. verifying: once SES ` +
      'finds the DKIM records the domain is verified and mail may go From any address at it; without them after ' +
      `${VERIFY_WINDOW_HOURS} h: failed, \`dkim_not_found\`. verified: the record statuses and DMARC are read ` +
      `again. Checked less than ${CHECK_NOW_MIN_SECONDS} s ago: answered as stored. A DNS outage changes nothing. ` +
      "A failed domain: 409 `state` (delete it and add it again). Another account's domain: 404.",
    params: DomainIdParams,
    responses: { 200: DomainView },
    errors: [404, 409],
  },
  [domainStore, dnsResolver, senderIdentities, clock],
  async ({ params }, { deps, clientId }) =>
    ok(await checkDomain({ ...deps, domainSettings: domainSettingsOf(deps.config) }, clientId, params.id)),
);
