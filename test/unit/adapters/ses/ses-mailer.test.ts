import {
  AccountSuspendedException,
  BadRequestException,
  InternalServiceErrorException,
  LimitExceededException,
  MailFromDomainNotVerifiedException,
  MessageRejected,
  NotFoundException,
  SendEmailCommand,
  SendingPausedException,
  SESv2Client,
  SESv2ServiceException,
  TooManyRequestsException,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SesMailer } from '../../../../shared/adapters/ses/ses-mailer.js';
import type { OutboundEmail } from '../../../../shared/platform.js';

const client = new SESv2Client({ region: 'us-east-1' });
const sesMock = mockClient(client);
afterEach(() => sesMock.reset());

const mailer = new SesMailer(client, { configurationSet: 'default-set' });
const email: OutboundEmail = {
  from: '"Acme" <hello@acme.example>',
  to: 'ada@example.com',
  replyTo: ['support@acme.example'],
  subject: 'Welcome, Ada',
  html: '<p>Hi Ada</p>',
  text: 'Hi Ada',
  headers: {
    'List-Unsubscribe': '<https://api.example/u/tok>, <mailto:unsub@acme.example?subject=unsubscribe>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  tags: { client_id: '7', execution_id: '42', sent_email_id: '0b8f2c4e-1d2a-4c6b-9e3f-5a7d8c9e0f1a' },
  configurationSet: 'lifecycle-events',
};
const minimal: OutboundEmail = {
  from: 'hello@acme.example',
  to: 'ada@example.com',
  subject: 'S',
  html: '<p>H</p>',
  text: 'T',
};

const sentInputs = () => sesMock.commandCalls(SendEmailCommand).map((c) => c.args[0].input);
const meta = { $metadata: {} };

describe('SesMailer', () => {
  it('sends one SendEmail with Simple content, headers, tags and the configuration set, and answers the SES id', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0001' });
    // Act
    const result = await mailer.send(email);
    // Assess
    expect(result).toEqual({ kind: 'sent', providerMessageId: 'ses-0001' });
    expect(sentInputs()).toEqual([
      {
        FromEmailAddress: '"Acme" <hello@acme.example>',
        Destination: { ToAddresses: ['ada@example.com'] },
        ReplyToAddresses: ['support@acme.example'],
        Content: {
          Simple: {
            Subject: { Data: 'Welcome, Ada', Charset: 'UTF-8' },
            Body: { Html: { Data: '<p>Hi Ada</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi Ada', Charset: 'UTF-8' } },
            Headers: [
              {
                Name: 'List-Unsubscribe',
                Value: '<https://api.example/u/tok>, <mailto:unsub@acme.example?subject=unsubscribe>',
              },
              { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
            ],
          },
        },
        EmailTags: [
          { Name: 'client_id', Value: '7' },
          { Name: 'execution_id', Value: '42' },
          { Name: 'sent_email_id', Value: '0b8f2c4e-1d2a-4c6b-9e3f-5a7d8c9e0f1a' },
        ],
        ConfigurationSetName: 'lifecycle-events',
      },
    ]);
  });

  it('leaves out what the e-mail does not have and falls back to the default configuration set', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0002' });
    // Act
    await mailer.send(minimal);
    // Assess
    expect(sentInputs()).toEqual([
      {
        FromEmailAddress: 'hello@acme.example',
        Destination: { ToAddresses: ['ada@example.com'] },
        Content: {
          Simple: {
            Subject: { Data: 'S', Charset: 'UTF-8' },
            Body: { Html: { Data: '<p>H</p>', Charset: 'UTF-8' }, Text: { Data: 'T', Charset: 'UTF-8' } },
          },
        },
        ConfigurationSetName: 'default-set',
      },
    ]);
  });

  it("names the client's SES tenant (TenantName) on a send that has one, and no tenant on one that has none", async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0005' });
    // Act
    await mailer.send({ ...email, tenant: 'els-client-7' });
    await mailer.send({ ...minimal, configurationSet: null });
    // Assess
    const [clientSend, systemSend] = sentInputs();
    expect(clientSend).toMatchObject({ TenantName: 'els-client-7', ConfigurationSetName: 'lifecycle-events' });
    expect(systemSend).not.toHaveProperty('TenantName');
  });

  it('sends without a configuration set when neither the e-mail nor the mailer names one', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0003' });
    // Act
    await new SesMailer(client).send(minimal);
    // Assess
    expect(sentInputs()[0]).not.toHaveProperty('ConfigurationSetName');
  });

  it("sends without the default configuration set when the e-mail says null (the service's own, untracked mail)", async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0005' });
    // Act
    await mailer.send({ ...minimal, configurationSet: null });
    // Assess
    expect(sentInputs()[0]).not.toHaveProperty('ConfigurationSetName');
  });

  it('turns tag names and values into the characters SES accepts, at most 256, and drops empty ones', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0004' });
    // Act
    await mailer.send({
      ...minimal,
      tags: { 'workflow.name': 'Welcome series #1', long: 'x'.repeat(300), empty: '', 'ok-name': 'a_b-c9' },
    });
    // Assess
    expect(sentInputs()[0]?.EmailTags).toEqual([
      { Name: 'workflow_name', Value: 'Welcome_series__1' },
      { Name: 'long', Value: 'x'.repeat(256) },
      { Name: 'ok-name', Value: 'a_b-c9' },
    ]);
  });

  it('encodes a non-ASCII display name as an RFC 2047 word and a non-ASCII domain as Punycode', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-0005' });
    // Act
    await mailer.send({
      ...minimal,
      from: '"Café \\"Zoë\\"" <hello@acme.example>',
      to: 'ana@bücher.example',
      replyTo: ['Zoë <zoe@acme.example>'],
    });
    // Assess
    const input = sentInputs()[0];
    expect(input?.FromEmailAddress).toBe(
      `=?UTF-8?B?${Buffer.from('Café "Zoë"').toString('base64')}?= <hello@acme.example>`,
    );
    expect(input?.Destination?.ToAddresses).toEqual(['ana@xn--bcher-kva.example']);
    expect(input?.ReplyToAddresses).toEqual([
      `=?UTF-8?B?${Buffer.from('Zoë').toString('base64')}?= <zoe@acme.example>`,
    ]);
  });

  it.each([
    {
      error: new MessageRejected({ message: 'Email address is not verified.', ...meta }),
      reason: 'MessageRejected: Email address is not verified.',
    },
    {
      error: new BadRequestException({ message: 'Missing final @domain', ...meta }),
      reason: 'BadRequestException: Missing final @domain',
    },
    {
      error: new MailFromDomainNotVerifiedException({ message: 'MAIL FROM domain is not verified', ...meta }),
      reason: 'MailFromDomainNotVerifiedException: MAIL FROM domain is not verified',
    },
  ])('answers rejected for $error.name, a permanent refusal of this message', async ({ error, reason }) => {
    // Prepare
    sesMock.on(SendEmailCommand).rejects(error);
    // Act
    const result = await mailer.send(email);
    // Assess
    expect(result).toEqual({ kind: 'rejected', reason });
    expect(sesMock.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it.each([
    new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', ...meta }),
    new LimitExceededException({ message: 'Daily message quota exceeded.', ...meta }),
    new SendingPausedException({ message: 'Sending is paused for this account.', ...meta }),
    new AccountSuspendedException({ message: 'Account suspended.', ...meta }),
    new NotFoundException({ message: 'Configuration set <lifecycle-events> does not exist.', ...meta }),
    new InternalServiceErrorException({ message: 'Internal error', ...meta }),
    new SESv2ServiceException({
      name: 'ServiceUnavailable',
      $fault: 'server',
      message: 'Service Unavailable',
      $metadata: { httpStatusCode: 503 },
    }),
    Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }),
    Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  ])('throws $name ($message) so the queue retries the message', async (error) => {
    // Prepare
    sesMock.on(SendEmailCommand).rejects(error);
    // Act
    const sending = mailer.send(email);
    // Assess
    await expect(sending).rejects.toBe(error);
  });

  it('throws when SES accepts the e-mail without a MessageId, which the status events could never match', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({});
    // Act
    const sending = mailer.send(email);
    // Assess
    await expect(sending).rejects.toThrow('returned no MessageId');
  });
});
