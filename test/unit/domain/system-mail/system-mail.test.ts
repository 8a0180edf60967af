import { describe, expect, it } from 'vitest';
import { createContainer } from '../../../../shared/composition/container.js';
import { systemMail } from '../../../../shared/composition/providers/system-mail.js';
import { loadConfig } from '../../../../shared/config.js';
import { MailerSystemMail } from '../../../../shared/domain/system-mail/system-mail.js';
import type { MailSendResult, Mailer, OutboundEmail } from '../../../../shared/platform.js';

/** A mailer that records what it is given and answers `result`. */
class RecordingMailer implements Mailer {
  readonly sent: OutboundEmail[] = [];
  constructor(private readonly result: MailSendResult | Error = { kind: 'sent', providerMessageId: 'm-1' }) {}
  async send(email: OutboundEmail): Promise<MailSendResult> {
    this.sent.push(email);
    if (this.result instanceof Error) throw this.result;
    return this.result;
  }
}

const message = {
  to: 'ada@example.com',
  subject: 'Sign in',
  text: 'Open https://x/cb',
  html: '<p><a href="https://x/cb">Sign in</a></p>',
};

describe('MailerSystemMail', () => {
  it('sends from the service address through its own configuration set, no headers (no List-Unsubscribe) and a system tag', async () => {
    // Prepare
    const mailer = new RecordingMailer();
    // Act
    const result = await new MailerSystemMail(mailer, 'accounts@service.example', 'system-set').send(message);
    // Assess
    expect(result).toEqual({ kind: 'sent', providerMessageId: 'm-1' });
    expect(mailer.sent).toEqual([
      {
        from: 'accounts@service.example',
        to: 'ada@example.com',
        subject: 'Sign in',
        text: 'Open https://x/cb',
        html: '<p><a href="https://x/cb">Sign in</a></p>',
        tags: { kind: 'system' },
        configurationSet: 'system-set',
      },
    ]);
    expect(mailer.sent[0]).not.toHaveProperty('headers');
    expect(mailer.sent[0]).not.toHaveProperty('replyTo');
  });

  it('answers a permanent refusal as the mailer does', async () => {
    const mailer = new RecordingMailer({ kind: 'rejected', reason: 'MessageRejected' });
    await expect(new MailerSystemMail(mailer, 'a@service.example', null).send(message)).resolves.toEqual({
      kind: 'rejected',
      reason: 'MessageRejected',
    });
  });

  it('throws a transient failure, so the caller decides', async () => {
    const mailer = new RecordingMailer(new Error('Throttling'));
    await expect(new MailerSystemMail(mailer, 'a@service.example', null).send(message)).rejects.toThrow('Throttling');
  });

  it('is provided over the container mailer with SYSTEM_FROM_EMAIL and SES_SYSTEM_CONFIGURATION_SET', async () => {
    // Prepare
    const mailer = new RecordingMailer();
    const config = loadConfig({
      SYSTEM_FROM_EMAIL: 'accounts@service.example',
      SES_SYSTEM_CONFIGURATION_SET: 'els-system',
      SES_CONFIGURATION_SET: 'els-clients',
    });
    const container = createContainer({ config, overrides: { mailer } });
    // Act
    await container.use(systemMail).send(message);
    // Assess
    expect(mailer.sent.map((e) => [e.from, e.configurationSet])).toEqual([['accounts@service.example', 'els-system']]);
  });

  it('defaults SYSTEM_FROM_EMAIL and refuses one that is not an address', () => {
    expect(loadConfig({}).SYSTEM_FROM_EMAIL).toBe('no-reply@example.com');
    expect(() => loadConfig({ SYSTEM_FROM_EMAIL: 'not an address' })).toThrow('SYSTEM_FROM_EMAIL');
  });
});
