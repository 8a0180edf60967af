import { randomUUID } from 'node:crypto';
import type { OutboundEmail, SesStatusMessage } from '../../shared/platform.js';

/**
 * SES status notifications as the local runtime emits them: SES event-publishing records (`eventType`, the shape a
 * configuration set publishes — docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html)
 * inside an SNS envelope, as SNS hands them to the status queue on AWS.
 */
export type LocalSesEvent =
  | { type: 'Send' }
  | { type: 'Delivery' }
  | {
      type: 'Bounce';
      bounceType: 'Permanent' | 'Transient';
      bounceSubType: string;
      diagnosticCode: string;
      status: string;
    }
  | { type: 'Complaint' };

const LOCAL_ACCOUNT = '000000000000';

export function sesNotification(
  event: LocalSesEvent,
  email: OutboundEmail,
  messageId: string,
  sentAt: Date,
  at: Date,
  region: string,
): SesStatusMessage {
  const recipient = email.to;
  const mail = {
    timestamp: sentAt.toISOString(),
    source: email.from,
    sourceArn: `arn:aws:ses:${region}:${LOCAL_ACCOUNT}:identity/${domainOf(email.from)}`,
    sendingAccountId: LOCAL_ACCOUNT,
    messageId,
    destination: [recipient],
    headersTruncated: false,
    commonHeaders: { from: [email.from], to: [recipient], messageId, subject: email.subject },
    tags: {
      'ses:configuration-set': [email.configurationSet ?? 'local'],
      'ses:operation': ['SendEmail'],
      ...Object.fromEntries(Object.entries(email.tags ?? {}).map(([name, value]) => [name, [value]])),
    },
  };
  const timestamp = at.toISOString();
  let record: Record<string, unknown>;
  switch (event.type) {
    case 'Send':
      record = { eventType: 'Send', mail, send: {} };
      break;
    case 'Delivery':
      record = {
        eventType: 'Delivery',
        mail,
        delivery: {
          timestamp,
          processingTimeMillis: at.getTime() - sentAt.getTime(),
          recipients: [recipient],
          smtpResponse: '250 2.6.0 Message received',
          reportingMTA: 'local.amazonses.com',
        },
      };
      break;
    case 'Bounce':
      record = {
        eventType: 'Bounce',
        mail,
        bounce: {
          bounceType: event.bounceType,
          bounceSubType: event.bounceSubType,
          bouncedRecipients: [
            { emailAddress: recipient, action: 'failed', status: event.status, diagnosticCode: event.diagnosticCode },
          ],
          timestamp,
          feedbackId: `${randomUUID()}-000000`,
          reportingMTA: 'dns; local.amazonses.com',
        },
      };
      break;
    case 'Complaint':
      record = {
        eventType: 'Complaint',
        mail,
        complaint: {
          complainedRecipients: [{ emailAddress: recipient }],
          timestamp,
          feedbackId: `${randomUUID()}-000000`,
          userAgent: 'Amazon SES Mailbox Simulator',
          complaintFeedbackType: 'abuse',
          arrivalDate: timestamp,
        },
      };
      break;
  }
  return {
    Type: 'Notification',
    MessageId: randomUUID(),
    TopicArn: `arn:aws:sns:${region}:${LOCAL_ACCOUNT}:local-ses-status`,
    Message: JSON.stringify(record),
    Timestamp: timestamp,
    SignatureVersion: '1',
    Signature: 'local',
    SigningCertURL: 'https://sns.local/cert.pem',
    UnsubscribeURL: 'https://sns.local/unsubscribe',
  };
}

const domainOf = (from: string) => from.replace(/^.*<([^>]*)>.*$/, '$1').split('@')[1] ?? 'localhost';
