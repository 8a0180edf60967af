import { describe, expect, it } from 'vitest';
import { SEND_NOTIFICATION_DELAY_SECONDS, SimulatorMailer } from '../../../local/engine/simulator-mailer.js';
import type { MailSendResult, Mailer, OutboundEmail, SesStatusMessage } from '../../../shared/platform.js';

const inner: Mailer = { send: async (): Promise<MailSendResult> => ({ kind: 'sent', providerMessageId: 'local-1' }) };
const email: OutboundEmail = {
  from: 'a@service.example',
  to: 'ada@example.com',
  subject: 'S',
  html: '<p>H</p>',
  text: 'T',
};

describe('SimulatorMailer', () => {
  it('publishes Send and Delivery for an e-mail sent with a configuration set (the default)', async () => {
    const published: SesStatusMessage[] = [];
    await new SimulatorMailer(inner, async (message) => void published.push(message)).send(email);
    expect(published).toHaveLength(2);
  });

  it('publishes them after the send has answered, as SES does: the Send a second later, the Delivery a second after', async () => {
    const delays: number[] = [];
    await new SimulatorMailer(inner, async (_message, delaySeconds) => void delays.push(delaySeconds)).send(email);
    expect(delays).toEqual([SEND_NOTIFICATION_DELAY_SECONDS, SEND_NOTIFICATION_DELAY_SECONDS + 1]);
    expect(SEND_NOTIFICATION_DELAY_SECONDS).toBeGreaterThan(0);
  });

  it('publishes nothing for an e-mail with no configuration set (configurationSet null), as SES does', async () => {
    const published: SesStatusMessage[] = [];
    const result = await new SimulatorMailer(inner, async (message) => void published.push(message)).send({
      ...email,
      configurationSet: null,
    });
    expect(result).toEqual({ kind: 'sent', providerMessageId: 'local-1' });
    expect(published).toEqual([]);
  });
});
