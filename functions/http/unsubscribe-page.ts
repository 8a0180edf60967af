import { publicPage } from '../../shared/http/public-page.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { sentEmailStore } from '../../shared/composition/providers/sent-email-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { linkNotFoundPage, PREFERENCE_PAGE_CSP, preferencePage } from '../../shared/domain/links/pages.js';
import { loadPreferences } from '../../shared/domain/links/preferences.js';
import { LinkTokenParams } from '../../shared/domain/links/schemas.js';

/** GET /u/{token} — the preference page; a GET never changes anything. */
export const handler = publicPage(
  {
    summary: 'Preference page',
    description:
      "The unsubscribe link of an e-mail: the contact's preference page, in the client's brand — every topic with its " +
      'state, the choice to leave all marketing mail, and a save button that posts the form to the same URL. Works ' +
      'without JavaScript; loads nothing from another origin. A GET changes nothing.',
    params: LinkTokenParams,
    pages: { 200: 'The preference page', 404: 'The link is not valid (or its contact was erased)' },
  },
  [sentEmailStore, contactStore, topicStore, settingsStore, clock, linkSecret],
  async ({ params }, { deps }) => {
    const view = await loadPreferences(deps, await deps.linkSecret.value(), params.token);
    if (!view) return { status: 404 as const, html: linkNotFoundPage() };
    const page = preferencePage({
      address: view.email.to_email,
      brand: view.brand,
      leftAll: view.leftAll,
      topics: view.topics,
    });
    return { status: 200 as const, html: page, headers: { 'content-security-policy': PREFERENCE_PAGE_CSP } };
  },
);
