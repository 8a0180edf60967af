import { SendEmailCommand, type MessageTag, type SendEmailCommandInput, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailSendResult, Mailer, OutboundEmail } from '../../platform.js';
import { mimeAddress } from './mime-address.js';
import { permanentRejection } from './ses-errors.js';

export interface SesMailerOptions {
  /** Configuration set used when the e-mail names none (it publishes the delivery events). */
  configurationSet?: string;
}

/**
 * The `Mailer` port on SES v2: one SendEmail with Simple content per e-mail. Permanent refusals become `rejected`
 * (the execution fails with the reason); everything else is thrown so the queue retries — see ses-errors.ts.
 */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly options: SesMailerOptions = {},
  ) {}

  async send(email: OutboundEmail): Promise<MailSendResult> {
    let messageId: string | undefined;
    try {
      ({ MessageId: messageId } = await this.client.send(new SendEmailCommand(this.sendEmailInput(email))));
    } catch (error) {
      const reason = permanentRejection(error);
      if (reason === undefined) throw error;
      return { kind: 'rejected', reason };
    }
    // SES answers every accepted send with an id; without one the status events could never be matched.
    if (!messageId) throw new Error('SES accepted the e-mail but returned no MessageId');
    return { kind: 'sent', providerMessageId: messageId };
  }

  private sendEmailInput(email: OutboundEmail): SendEmailCommandInput {
    const headers = Object.entries(email.headers ?? {}).map(([Name, Value]) => ({ Name, Value }));
    const tags = emailTags(email.tags ?? {});
    // null: sent with no configuration set, so SES publishes no status events for it (the service's own mail).
    const configurationSet =
      email.configurationSet === null ? undefined : (email.configurationSet ?? this.options.configurationSet);
    return {
      FromEmailAddress: mimeAddress(email.from),
      Destination: { ToAddresses: [mimeAddress(email.to)] },
      ...(email.replyTo?.length ? { ReplyToAddresses: email.replyTo.map(mimeAddress) } : {}),
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: 'UTF-8' },
          Body: { Html: { Data: email.html, Charset: 'UTF-8' }, Text: { Data: email.text, Charset: 'UTF-8' } },
          ...(headers.length ? { Headers: headers } : {}),
        },
      },
      ...(tags.length ? { EmailTags: tags } : {}),
      ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
      // The client's tenant: SES applies its reputation policy, pause and suppression list, and refuses a resource
      // (identity, configuration set) not associated with it. The service's own mail names none.
      ...(email.tenant ? { TenantName: email.tenant } : {}),
    };
  }
}

/**
 * SES accepts only [A-Za-z0-9_-], at most 256 characters, in tag names and values, and refuses the whole send
 * otherwise; a tag must never cost the e-mail, so other characters become `_`. A tag left empty is dropped.
 */
export function emailTags(tags: Record<string, string>): MessageTag[] {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256);
  return Object.entries(tags)
    .map(([name, value]) => ({ Name: clean(name), Value: clean(value) }))
    .filter((tag) => tag.Name && tag.Value);
}
