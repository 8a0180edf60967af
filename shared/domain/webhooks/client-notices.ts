import type { SystemMail } from '../system-mail/system-mail.js';
import type { ClientNotices } from './deliver-webhook.js';
import { escapeHtml } from '../html/escape-html.js';

/** The notices of the webhook deliveries, as the service's own e-mails to the client's address. */
export class SystemMailClientNotices implements ClientNotices {
  constructor(private readonly systemMail: SystemMail) {}

  async webhookDisabled(
    client: { id: number; email: string; name: string },
    endpoint: { id: number; url: string },
    failingSince: string,
  ): Promise<void> {
    const lines = [
      `Hello ${client.name},`,
      '',
      `Every delivery to your webhook endpoint ${endpoint.url} (id ${endpoint.id}) has failed since ${failingSince}, so it has been disabled.`,
      'Nothing is lost: the events of the last 30 days are kept, with every attempt, and can be replayed.',
      '',
      'To receive events again: fix the endpoint, then PATCH /api/v1/client/webhooks/' +
        endpoint.id +
        ' with {"enabled": true},',
      'check it with POST /api/v1/client/webhooks/' +
        endpoint.id +
        '/test, and replay what it missed from GET …/attempts.',
    ];
    const text = lines.join('\n');
    const html = `<p>${lines
      .filter((l) => l !== '')
      .map(escapeHtml)
      .join('</p><p>')}</p>`;
    const result = await this.systemMail.send({
      to: client.email,
      subject: `Webhook endpoint ${endpoint.id} disabled after 5 days of failures`,
      text,
      html,
    });
    // A refused address (a client e-mail SES will not take) cannot be helped by sending again; the endpoint stays disabled.
    if (result.kind === 'rejected')
      console.warn(
        JSON.stringify({
          level: 'WARN',
          message: 'webhook disabled notice refused',
          client_id: client.id,
          reason: result.reason,
        }),
      );
  }
}
