import type { Config } from '../config.js';
import type { SenderSettings } from '../domain/executions/execute-workflow.js';
import { linkSecretOf } from './link-secret.js';

/** The executor's sender settings from configuration; the link secret is required wherever e-mails are built. */
export function senderSettingsOf(config: Config): SenderSettings {
  return {
    linkSecret: linkSecretOf(config),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    defaultFromAddress: config.DEFAULT_FROM_ADDRESS,
    ...(config.SES_CONFIGURATION_SET ? { configurationSet: config.SES_CONFIGURATION_SET } : {}),
    ...(config.UNSUBSCRIBE_MAILTO ? { unsubscribeMailto: config.UNSUBSCRIBE_MAILTO } : {}),
  };
}
