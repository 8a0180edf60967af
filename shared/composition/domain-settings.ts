import type { Config } from '../config.js';
import type { DomainSettings } from '../domain/domains/domain-view.js';
import { domainOfAddress, normalizeDomain } from '../domain/domains/normalize-domain.js';
import { serviceSendersOf } from '../domain/domains/service-senders.js';
import { linksBaseUrlOf } from '../domain/links/links-base-url.js';

/** SES's own domain (DKIM CNAME targets, MAIL FROM MX hosts): never a client's. */
const SES_DOMAIN = 'amazonses.com';

/**
 * The domain rules' settings from configuration: SES's region, and the service's own domains no client may claim
 * (the system sender's, the onboarding sender's, the dashboard's and the links' hosts, SES's).
 */
export function domainSettingsOf(config: Config): DomainSettings {
  const hosts = [config.PUBLIC_BASE_URL, linksBaseUrlOf(config)].map((url) => normalizeDomain(new URL(url).hostname));
  const senders = serviceSendersOf(config).reserved.map(domainOfAddress);
  const reserved = [...senders, ...hosts, SES_DOMAIN].filter((d): d is string => d !== undefined);
  return { region: config.AWS_REGION, reservedDomains: [...new Set(reserved)] };
}
