import { conflict, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { DomainStore } from './domain-store.js';
import { type DomainSettings, domainViewOf } from './domain-view.js';
import { domainOfAddress } from './normalize-domain.js';
import type { DeletedDomainView } from './schemas.js';
import type { SenderIdentities } from './sender-identities.js';

interface DeleteDeps {
  domains: DomainStore;
  senderIdentities: SenderIdentities;
  settings: SettingsStore;
  clock: Clock;
  domainSettings: Pick<DomainSettings, 'region'>;
}

/** Deletes raced by a check of the same claim: read again and try again. */
const MAX_ATTEMPTS = 3;

/**
 * DELETE /client/domains/{id}: the claim, its locks and its place among the verified domains go; the answer shows
 * what it was, with a warning when the settings' From was at it (mail then falls back: another verified domain, or
 * the sandbox). The SES identity is deleted first: the table never frees a name while an identity for it still
 * belongs to this client's tenant. 404 for a claim the client does not hold.
 */
export async function deleteDomain(deps: DeleteDeps, clientId: number, domainId: number): Promise<DeletedDomainView> {
  for (let attempt = 1; ; attempt += 1) {
    const record = await deps.domains.get(clientId, domainId);
    if (!record) throw notFound('id', 'Domain not found');
    // Only a proven claim can have an identity (made after proof).
    if (record.proven_at !== undefined) await deps.senderIdentities.deleteDomainIdentity(record.domain);
    if (await deps.domains.delete(record)) {
      const month = deps.clock.now().toISOString().slice(0, 7);
      const from = (await deps.settings.load(clientId, month)).settings?.email_from_address;
      const fromHere = from !== undefined && domainOfAddress(from) === record.domain;
      return {
        ...domainViewOf(record, deps.domainSettings),
        warning: fromHere
          ? `Your settings send From ${from}, which is no longer at a verified domain: mail goes From another ` +
            'verified domain, or from the onboarding sender (the sandbox) when none is left. Change ' +
            'email_from_address in your settings.'
          : null,
      };
    }
    if (attempt >= MAX_ATTEMPTS) throw conflict('state', 'id', 'The domain changed concurrently; try again');
  }
}
