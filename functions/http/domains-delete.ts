import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { domainStore } from '../../shared/composition/providers/domain-store.js';
import { senderIdentities } from '../../shared/composition/providers/sender-identities.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { domainSettingsOf } from '../../shared/composition/domain-settings.js';
import { deleteDomain } from '../../shared/domain/domains/delete-domain.js';
import { DeletedDomainView, DomainIdParams } from '../../shared/domain/domains/schemas.js';

/** DELETE /client/domains/{id} — removes the domain; the answer shows what it was. */
export const handler = jsonApi(
  {
    summary: 'Delete a sending domain',
    description:
      'Removes the domain and its SES identity; mail no longer goes From it (other containers may use it for up to ' +
      'the configuration cache, 30 s). A domain this account proved is free for any account to claim again. ' +
      "`warning` is set when the settings' email_from_address was at this domain: mail then goes From another " +
      "verified domain, or from the onboarding sender (the sandbox) when none is left. Another account's domain: 404.",
    params: DomainIdParams,
    responses: { 200: DeletedDomainView },
    errors: [404, 409],
  },
  [domainStore, senderIdentities, settingsStore, clock],
  async ({ params }, { deps, clientId }) =>
    ok(
      await deleteDomain({ ...deps, domainSettings: domainSettingsOf(deps.config) }, clientId, params.id),
      'Domain deleted',
    ),
);
