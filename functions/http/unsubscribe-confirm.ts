import * as z from '../../shared/validation/zod.js';
import { formFieldsOf } from '../../shared/http/form-fields.js';
import { isOneClickRequest } from '../../shared/http/one-click-body.js';
import { publicPage } from '../../shared/http/public-page.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { unsubscribeStore } from '../../shared/composition/providers/unsubscribe-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { unsubscribeByLink } from '../../shared/domain/links/public-links.js';
import {
  linkNotFoundPage,
  PREFERENCE_PAGE_CSP,
  preferencePage,
  unsubscribedPage,
} from '../../shared/domain/links/pages.js';
import { loadPreferences, preferenceChoiceOf, savePreferences } from '../../shared/domain/links/preferences.js';
import { LinkTokenParams } from '../../shared/domain/links/schemas.js';

/**
 * POST /u/{token} — RFC 8058 one-click (`List-Unsubscribe=One-Click`, sent by mail clients): unsubscribed at once (a
 * topic's e-mail: that topic only), 200, no redirect, no cookie. The preference page's form (`form=preferences`)
 * posts here too and is answered with the page, saved. Any other POST (empty, a link scanner's, another body) changes
 * nothing and is answered with the page, as the GET.
 */
export const handler = publicPage(
  {
    summary: 'Unsubscribe (one-click) or save preferences',
    description:
      "RFC 8058 one-click unsubscribe, sent by mail clients from the e-mail's `List-Unsubscribe` header: only a body " +
      'holding `List-Unsubscribe=One-Click` (form-encoded, or as a multipart/form-data field) unsubscribes. The contact is ' +
      'unsubscribed at once; no redirect, no cookie. The link of an e-mail sent under a topic leaves that ' +
      "topic only: the contact's other mail goes on. With `form=preferences` (the preference page's form) the body is " +
      "the page's choices instead: `shown` (each topic id the page showed), `topic` (each topic id ticked) and " +
      '`leave_all=on`; the answer is the page with the choices saved. Any other POST (no body, another body) changes ' +
      'nothing and is answered with the preference page, 200, as GET /u/{token}.',
    params: LinkTokenParams,
    form: z.object({
      'List-Unsubscribe': z.optional(z.literal('One-Click')),
      form: z.optional(z.literal('preferences')),
      // A topic id has at most 9 digits; the form's reader ignores any other value (preferenceChoiceOf).
      shown: z.optional(
        z.array(
          z
            .string()
            .check(
              z.meta({ maxLength: 9, pattern: '^\\d{1,9}$', description: 'A topic id (anything else is ignored)' }),
            ),
        ),
      ),
      topic: z.optional(
        z.array(
          z
            .string()
            .check(
              z.meta({ maxLength: 9, pattern: '^\\d{1,9}$', description: 'A topic id (anything else is ignored)' }),
            ),
        ),
      ),
      leave_all: z.optional(z.literal('on')),
    }),
    pages: {
      200: 'The contact is unsubscribed, or its preferences are saved; without either body, the preference page (nothing changed)',
      404: 'The link is not valid',
    },
  },
  [sentEmailStore, contactStore, unsubscribeStore, topicStore, settingsStore, clock, linkSecret],
  async ({ params }, { deps, event }) => {
    const secret = await deps.linkSecret.value();
    const choice = preferenceChoiceOf(formFieldsOf(event));
    if (choice) {
      const view = await savePreferences(deps, secret, params.token, choice);
      if (!view) return { status: 404 as const, html: linkNotFoundPage() };
      const page = preferencePage(
        { address: view.email.to_email, brand: view.brand, leftAll: view.leftAll, topics: view.topics },
        true,
      );
      return { status: 200 as const, html: page, headers: { 'content-security-policy': PREFERENCE_PAGE_CSP } };
    }
    if (!(await isOneClickRequest(event))) {
      // Not the RFC 8058 body: a scanner or a stray POST must not unsubscribe anyone. The page, as the GET answers it.
      const view = await loadPreferences(deps, secret, params.token);
      if (!view) return { status: 404 as const, html: linkNotFoundPage() };
      const page = preferencePage({
        address: view.email.to_email,
        brand: view.brand,
        leftAll: view.leftAll,
        topics: view.topics,
      });
      return { status: 200 as const, html: page, headers: { 'content-security-policy': PREFERENCE_PAGE_CSP } };
    }
    const email = await unsubscribeByLink(deps, secret, params.token);
    return email
      ? { status: 200 as const, html: unsubscribedPage(email.to_email) }
      : { status: 404 as const, html: linkNotFoundPage() };
  },
);
