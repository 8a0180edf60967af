import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesSenderIdentities } from '../../adapters/ses/ses-identities.js';
import { provide } from '../container.js';
import { clientsConfigurationSetOf, onboardingIdentityOf } from '../sender-identities-config.js';
import { localSenderIdentities } from './local-sender-identities.js';

/**
 * SES tenants and domain identities: SES v2 (SENDER_IDENTITIES=ses; the SDK's default retries, since every call is
 * idempotent), or the local runtime's registry in the table (SENDER_IDENTITIES=local).
 */
export const senderIdentities = provide('senderIdentities', (c) => {
  if (c.config.SENDER_IDENTITIES === 'local') return c.use(localSenderIdentities);
  const { AWS_REGION, AWS_ENDPOINT_URL_SESV2 } = c.config;
  const client = new SESv2Client({
    region: AWS_REGION,
    ...(AWS_ENDPOINT_URL_SESV2 ? { endpoint: AWS_ENDPOINT_URL_SESV2 } : {}),
  });
  return new SesSenderIdentities(client, {
    tenantPrefix: c.config.SES_TENANT_PREFIX,
    configurationSet: clientsConfigurationSetOf(c.config),
    onboardingIdentity: onboardingIdentityOf(c.config),
    reputationPolicyArn: c.config.SES_TENANT_REPUTATION_POLICY_ARN,
  });
});
