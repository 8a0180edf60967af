import { getContainer } from '../../shared/composition/container.js';
import { domainSettingsOf } from '../../shared/composition/domain-settings.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { dnsResolver } from '../../shared/composition/providers/dns-resolver.js';
import { domainStore } from '../../shared/composition/providers/domain-store.js';
import { senderIdentities } from '../../shared/composition/providers/sender-identities.js';
import { type PollDomainsResult, pollDomains } from '../../shared/domain/domains/poll-domains.js';
import { logger } from '../../shared/logger.js';

/** Every few minutes: sending domains whose next check is due are checked (ownership record, then SES's DKIM). */
export const handler = async (): Promise<PollDomainsResult> => {
  const deps = getContainer().resolve([domainStore, dnsResolver, senderIdentities, clock]);
  const result = await pollDomains({ ...deps, domainSettings: domainSettingsOf(deps.config) });
  if (result.errors > 0) logger.warn('some domain checks failed; retried next run', { ...result });
  return result;
};
