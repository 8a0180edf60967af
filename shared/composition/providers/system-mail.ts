import { MailerSystemMail } from '../../domain/system-mail/system-mail.js';
import { provide } from '../container.js';
import { mailer } from './mailer.js';

/** The service's own e-mails through the container's mailer and their own configuration set (the local runtime's SES viewer shows them). */
export const systemMail = provide(
  'systemMail',
  (c) => new MailerSystemMail(c.use(mailer), c.config.SYSTEM_FROM_EMAIL, c.config.SES_SYSTEM_CONFIGURATION_SET ?? null),
);
