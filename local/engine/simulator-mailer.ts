import type { Mailer, MailSendResult, OutboundEmail } from '../../shared/ports.js';

/**
 * The SES mailbox simulator on the local runtime (local only, documented in the README). SES accepts mail to
 * success@, bounce@, ooto@, complaint@ and suppressionlist@simulator.amazonses.com and reports their outcome later
 * as status events (the delivery-tracking issue); the emulator receives them like any mail. reject@ is refused at
 * send time with MessageRejected, as a way to produce a failed execution and try the retry endpoint.
 */
export const REJECT_ADDRESS = 'reject@simulator.amazonses.com';

export class SimulatorMailer implements Mailer {
  constructor(private readonly inner: Mailer) {}

  async send(email: OutboundEmail): Promise<MailSendResult> {
    if (email.to.trim().toLowerCase() === REJECT_ADDRESS) {
      return { kind: 'rejected', reason: 'MessageRejected: Email address is on the reject list (SES mailbox simulator)' };
    }
    return this.inner.send(email);
  }
}
