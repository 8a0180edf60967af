import { LocalSenderIdentities } from '../../adapters/local-ses/local-sender-identities.js';
import { provide } from '../container.js';
import { clientsConfigurationSetOf, onboardingIdentityOf } from '../sender-identities-config.js';
import { clock } from './clock.js';
import { dnsResolver } from './dns-resolver.js';
import { standInTableOf } from './local-stand-in-table.js';

/**
 * The local runtime's SES identity and tenant registry (SENDER_IDENTITIES=local): DKIM checked against the same
 * resolver the domain checks use, so records published to the local DNS verify a domain as SES would.
 */
export const localSenderIdentities = provide('localSenderIdentities', (c) => {
  const { db, tableName } = standInTableOf(c);
  return new LocalSenderIdentities(db, tableName, c.use(dnsResolver), c.use(clock), {
    tenantPrefix: c.config.SES_TENANT_PREFIX,
    configurationSet: clientsConfigurationSetOf(c.config),
    onboardingIdentity: onboardingIdentityOf(c.config),
    region: c.config.AWS_REGION,
  });
});
