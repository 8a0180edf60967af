import { clientPage } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { topicStore } from '../../shared/composition/providers/topic-store.js';
import { PREFERENCE_PAGE_CSP, preferencePage } from '../../shared/domain/links/pages.js';
import { previewPreferences } from '../../shared/domain/links/preferences.js';

/** GET /client/topics/preference-page-preview — the preference page as a contact sees it, saving nothing. */
export const handler = clientPage(
  {
    summary: 'Preview the preference page',
    description:
      "The page behind the unsubscribe link of the client's e-mails (GET /u/{token}), rendered by the same code with " +
      "the same content-security policy, for a sample contact that never chose: the client's brand, every topic at " +
      'its `default_subscribed`, the choice to leave all marketing mail. Its controls are disabled and its form posts ' +
      'nowhere ("Preview: nothing is saved"). HTML, for the dashboard to open in a new tab (the session cookie ' +
      'authenticates it).',
    pages: { 200: 'The preference page as a contact who never chose sees it, read-only' },
  },
  [topicStore, settingsStore, clock],
  async (_input, { deps, clientId }) => {
    const view = await previewPreferences(deps, clientId);
    return {
      status: 200 as const,
      html: preferencePage(view, false, true),
      headers: { 'content-security-policy': PREFERENCE_PAGE_CSP },
    };
  },
);
