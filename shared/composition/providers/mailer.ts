import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesMailer } from '../../adapters/ses/ses-mailer.js';
import { provide } from '../container.js';

/**
 * SES v2. `maxAttempts: 1`: SendEmail has no idempotency token, so an SDK retry after SES accepted a mail could
 * send it twice; the queue retries instead, after the executor has recorded the failure (docs/decisions/0069-nothing-stranded-claims-decided-from-evidence.md).
 */
export const mailer = provide('mailer', (c) => {
  const { AWS_REGION, AWS_ENDPOINT_URL_SESV2, SES_CONFIGURATION_SET } = c.config;
  const client = new SESv2Client({
    region: AWS_REGION,
    maxAttempts: 1,
    ...(AWS_ENDPOINT_URL_SESV2 ? { endpoint: AWS_ENDPOINT_URL_SESV2 } : {}),
  });
  return new SesMailer(client, SES_CONFIGURATION_SET ? { configurationSet: SES_CONFIGURATION_SET } : {});
});
