import type { Mailer, MailSendResult, OutboundEmail } from '../../platform.js';
import type { FaultCounts, FaultDice } from './fault-dice.js';
import { connectionReset, requestTimeout, sesInternalError, sesThrottled } from './fault-errors.js';
import type { FaultKind } from './fault-spec.js';

export type SesFaultKind = FaultKind<'ses'>;

/**
 * A Mailer whose sends fail as SES sends fail. The after-send kinds are the dangerous ones: SES accepted (and will
 * deliver) the e-mail, but the caller sees an error and the queue retries — the duplicate-send case. The
 * before-send kinds are what SesMailer throws once the SDK gave up: nothing was sent.
 */
export class FaultyMailer implements Mailer {
  constructor(
    private readonly inner: Mailer,
    private readonly dice: FaultDice<SesFaultKind>,
  ) {}

  async send(email: OutboundEmail): Promise<MailSendResult> {
    const fault = this.dice.draw();
    switch (fault) {
      case 'throttle':
        this.dice.record(fault);
        throw sesThrottled();
      case 'error-5xx-before-send':
        this.dice.record(fault);
        throw sesInternalError();
      case 'reset-after-send':
      case 'timeout-after-send':
        // The answer is lost whatever it was; a send that failed on its own is not an injected fault.
        await this.inner.send(email);
        this.dice.record(fault);
        throw fault === 'reset-after-send' ? connectionReset() : requestTimeout();
      case undefined:
        return this.inner.send(email);
    }
  }

  get counts(): FaultCounts<SesFaultKind> {
    return this.dice.counts();
  }
}
