import type { Mailer, MailSendResult, OutboundEmail, SesStatusMessage } from '../../shared/platform.js';
import { sesNotification, type LocalSesEvent } from './ses-notifications.js';

/**
 * The SES mailbox simulator on the local runtime (local only, documented in docs/api-guide.md), and SES's status events:
 * after every accepted e-mail a Send notification, then what SES would report for the address —
 * - success@… and every ordinary address: Delivery;
 * - bounce@simulator.amazonses.com: a permanent bounce (General);
 * - suppressionlist@…: a permanent bounce with subtype OnAccountSuppressionList;
 * - complaint@…: Delivery, then a complaint;
 * - ooto@…: Delivery (SES also delivers an out-of-office reply to the sender, which nobody reads);
 * - reject@…: refused at send time with MessageRejected, as a way to produce a failed execution and try retry.
 * The notifications go to the local status queue as SNS envelopes, a second apart and the first a second after the
 * send, as SES publishes them: asynchronously, after the SendEmail call has answered. (Published at once, the Send
 * notification overtook the executor's own record of the send in ~15 % of e-mails, a race SES's event publishing
 * makes rare; each overtake cost a wake of the execution. The overtaking path keeps its own tests.)
 */
/** Seconds from SES accepting an e-mail to its Send notification reaching the status queue. */
export const SEND_NOTIFICATION_DELAY_SECONDS = 1;
export const REJECT_ADDRESS = 'reject@simulator.amazonses.com';
const SIMULATOR_DOMAIN = '@simulator.amazonses.com';

export type NotificationSink = (message: SesStatusMessage, delaySeconds: number) => Promise<void>;

export class SimulatorMailer implements Mailer {
  constructor(
    private readonly inner: Mailer,
    private readonly notify?: NotificationSink,
    private readonly region = 'us-east-1',
  ) {}

  async send(email: OutboundEmail): Promise<MailSendResult> {
    const address = email.to.trim().toLowerCase();
    if (address === REJECT_ADDRESS) {
      return {
        kind: 'rejected',
        reason: 'MessageRejected: Email address is on the reject list (SES mailbox simulator)',
      };
    }
    const result = await this.inner.send(email);
    // No configuration set (configurationSet null, the service's own mail): SES publishes no events for it.
    if (result.kind === 'sent' && this.notify && email.configurationSet !== null)
      await this.emit(email, address, result.providerMessageId);
    return result;
  }

  private async emit(email: OutboundEmail, address: string, messageId: string): Promise<void> {
    const sentAt = new Date();
    const outcome = outcomesOf(address);
    const events: LocalSesEvent[] = [{ type: 'Send' }, ...outcome];
    await Promise.all(
      events.map((event, i) =>
        this.notify!(
          sesNotification(event, email, messageId, sentAt, new Date(sentAt.getTime() + i * 1000), this.region),
          SEND_NOTIFICATION_DELAY_SECONDS + i,
        ),
      ),
    );
  }
}

function outcomesOf(address: string): LocalSesEvent[] {
  if (!address.endsWith(SIMULATOR_DOMAIN)) return [{ type: 'Delivery' }];
  switch (address.slice(0, -SIMULATOR_DOMAIN.length)) {
    case 'bounce':
      return [
        {
          type: 'Bounce',
          bounceType: 'Permanent',
          bounceSubType: 'General',
          status: '5.1.1',
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        },
      ];
    case 'suppressionlist':
      return [
        {
          type: 'Bounce',
          bounceType: 'Permanent',
          bounceSubType: 'OnAccountSuppressionList',
          status: '5.1.1',
          diagnosticCode:
            'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
        },
      ];
    case 'complaint':
      return [{ type: 'Delivery' }, { type: 'Complaint' }];
    default:
      return [{ type: 'Delivery' }];
  }
}
