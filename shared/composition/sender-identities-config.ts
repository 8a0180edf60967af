import type { Config } from '../config.js';
import { domainOfAddress } from '../domain/domains/normalize-domain.js';
import { onboardingFromAddressOf } from '../domain/domains/service-senders.js';

/** The onboarding sender's domain: the identity every client's tenant is associated with, for the sandbox. */
export const onboardingIdentityOf = (config: Config): string | undefined =>
  domainOfAddress(onboardingFromAddressOf(config));

/**
 * The clients' configuration set every tenant is associated with. Required with SES (the stack sets it); the local
 * runtime, which has none, names one so a client's sending looks the same there.
 */
export function clientsConfigurationSetOf(config: Config): string {
  if (config.SES_CONFIGURATION_SET) return config.SES_CONFIGURATION_SET;
  if (config.SENDER_IDENTITIES === 'local') return LOCAL_CLIENTS_CONFIGURATION_SET;
  throw new Error('SENDER_IDENTITIES=ses needs SES_CONFIGURATION_SET (the clients’ configuration set)');
}

const LOCAL_CLIENTS_CONFIGURATION_SET = 'email-lifecycle-clients';
