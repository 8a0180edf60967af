import type { TenantStatus } from '../../domain/domains/sender-identities.js';
import type { Mailer, MailSendResult, OutboundEmail } from '../../platform.js';
import { sesError } from './local-sender-identities.js';

/**
 * The local runtime's SES refusing a send through a paused tenant, as SES does (aws-ses-v2-local knows no tenants):
 * a send naming a DISABLED tenant throws `SendingPausedException`, SES's one pause error, before anything is sent.
 * Mail without a tenant (the service's own) is never held back.
 */
export class TenantPauseMailer implements Mailer {
  constructor(
    private readonly inner: Mailer,
    /** The tenant's status; undefined for a tenant the registry does not hold (sent as before: only a pause refuses). */
    private readonly tenantStatus: (tenant: string) => Promise<TenantStatus | undefined>,
  ) {}

  async send(email: OutboundEmail): Promise<MailSendResult> {
    if (email.tenant) {
      const found = await this.tenantStatus(email.tenant);
      if (found?.status === 'DISABLED')
        throw sesError(
          'SendingPausedException',
          `The message can't be sent because sending is paused for the tenant ${email.tenant}${found.cause ? ` (${found.cause})` : ''}.`,
        );
    }
    return this.inner.send(email);
  }
}
