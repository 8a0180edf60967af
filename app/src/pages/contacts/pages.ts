import { ExecutionsPage } from '../executions/executions-page.js';
import type { PageEntry } from '../registry.js';
import { SentEmailPage } from '../sent-email/sent-email-page.js';
import { ContactPage } from './contact-page.js';
import { ContactsPage } from './contacts-page.js';

/** The contacts group's pages (issue 25 §1): contacts and one contact, a sent e-mail, the executions. */
export const CONTACT_PAGES: readonly PageEntry[] = [
  { page: 'contacts', title: 'Contacts', nav: true, component: ContactsPage },
  { page: 'contact', title: 'Contact', nav: false, component: ContactPage },
  { page: 'sent-email', title: 'Sent e-mail', nav: false, component: SentEmailPage },
  { page: 'executions', title: 'Executions', nav: true, component: ExecutionsPage },
];
