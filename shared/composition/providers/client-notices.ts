import { SystemMailClientNotices } from '../../domain/webhooks/client-notices.js';
import { provide } from '../container.js';
import { systemMail } from './system-mail.js';

/** Notices to clients (a webhook endpoint disabled), as the service's own e-mails. */
export const clientNotices = provide('clientNotices', (c) => new SystemMailClientNotices(c.use(systemMail)));
