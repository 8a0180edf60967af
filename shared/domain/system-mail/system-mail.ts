import type { MailSendResult, Mailer } from '../../platform.js';

/** One e-mail of the service's own: to one address, with both an HTML and a text body. */
export interface SystemMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The `kind` tag every system e-mail carries: the status pipeline tells its notifications apart by it. */
export const SYSTEM_MAIL_TAG = 'system';

/**
 * The service's own transactional e-mails (sign-in links, invitations, notices to a client's users), as opposed to
 * the lifecycle e-mails a client sends its contacts: from the service's address (SYSTEM_FROM_EMAIL), through a
 * configuration set of their own (SES_SYSTEM_CONFIGURATION_SET: its events reach the same status pipeline, which
 * counts their bounces and complaints apart from any client's; SES suppresses addresses that bounced or complained),
 * and no List-Unsubscribe (they are not marketing; RFC 8058 does not apply). `sent` or a permanent `rejected` is
 * answered; a transient failure (throttling, network) is thrown.
 */
export interface SystemMail {
  send(message: SystemMessage): Promise<MailSendResult>;
}

/** SystemMail over the Mailer port (SES v2 on AWS; locally the SES viewer shows them). */
export class MailerSystemMail implements SystemMail {
  constructor(
    private readonly mailer: Mailer,
    private readonly from: string,
    /** Its own configuration set; null where none is configured (SES then publishes no events for it). */
    private readonly configurationSet: string | null,
  ) {}

  send(message: SystemMessage): Promise<MailSendResult> {
    return this.mailer.send({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      // Tagged so an operator can tell them apart in SES's sending statistics; no client, execution or e-mail ids.
      tags: { kind: SYSTEM_MAIL_TAG },
      configurationSet: this.configurationSet,
    });
  }
}
