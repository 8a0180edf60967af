import type { Config } from '../config.js';
import { linksBaseUrlOf } from '../domain/links/links-base-url.js';
import type { SenderSettings } from '../domain/executions/execute-workflow.js';

/**
 * The executor's sender settings from configuration and the link secret's value (the `linkSecret` component's,
 * read by the caller: on AWS it comes from Secrets Manager, so it is awaited, and cached there, not here).
 */
export function senderSettingsOf(config: Config, linkSecret: string): SenderSettings {
  return {
    linkSecret,
    // The links in e-mails (/u/, /v/) live on their own host where the deployment gives one.
    publicBaseUrl: linksBaseUrlOf(config),
    defaultFromAddress: onboardingFromAddressOf(config),
    ...(config.SES_CONFIGURATION_SET ? { configurationSet: config.SES_CONFIGURATION_SET } : {}),
    ...(config.UNSUBSCRIBE_MAILTO ? { unsubscribeMailto: config.UNSUBSCRIBE_MAILTO } : {}),
  };
}

/**
 * The shared onboarding sender (the sandbox's From): ONBOARDING_FROM_ADDRESS, else its deprecated name
 * DEFAULT_FROM_ADDRESS, else an address on a reserved domain (RFC 2606) that no client can verify.
 */
export const onboardingFromAddressOf = (config: Config): string =>
  config.ONBOARDING_FROM_ADDRESS ?? config.DEFAULT_FROM_ADDRESS ?? 'onboarding@sandbox.example.net';
