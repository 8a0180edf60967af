import type { Config } from '../config.js';
import { linksBaseUrlOf } from '../domain/links/links-base-url.js';
import type { SenderSettings } from '../domain/executions/execute-workflow.js';
import { serviceSendersOf } from '../domain/domains/service-senders.js';

export { onboardingFromAddressOf } from '../domain/domains/service-senders.js';

/**
 * The executor's sender settings from configuration and the link secret's value (the `linkSecret` component's,
 * read by the caller: on AWS it comes from Secrets Manager, so it is awaited, and cached there, not here).
 */
export function senderSettingsOf(config: Config, linkSecret: string): SenderSettings {
  return {
    linkSecret,
    // The links in e-mails (/u/, /v/) live on their own host where the deployment gives one.
    publicBaseUrl: linksBaseUrlOf(config),
    ...serviceSendersOf(config),
    ...(config.SES_CONFIGURATION_SET ? { configurationSet: config.SES_CONFIGURATION_SET } : {}),
    ...(config.UNSUBSCRIBE_MAILTO ? { unsubscribeMailto: config.UNSUBSCRIBE_MAILTO } : {}),
  };
}
