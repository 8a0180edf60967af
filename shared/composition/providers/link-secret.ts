import { requiredSecret } from '../configured-secret.js';
import { provide } from '../container.js';

/** The HMAC key of the public links (and of contact-list cursors): LINK_SECRET locally, LINK_SECRET_ARN on AWS. */
export const linkSecret = provide('linkSecret', (c) =>
  requiredSecret(c.config, 'LINK_SECRET', 'sign and verify public links'),
);
