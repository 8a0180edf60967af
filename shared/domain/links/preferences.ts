import type { Clock } from '../../platform.js';
import type { ContactStore } from '../contacts/contact-store.js';
import { SENT_STATUS, type SentEmailRecord } from '../sent-emails/sent-email-record.js';
import type { SentEmailStore } from '../sent-emails/sent-email-store.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { subscribedToTopic, topicChoiceOf } from '../topics/contact-topics.js';
import type { TopicRecord, TopicStore } from '../topics/topic-store.js';
import { verifyLinkToken } from './link-token.js';
import type { PreferencePageView } from './pages.js';
import type { UnsubscribeStore } from './unsubscribe-store.js';

/** Why the preference page left the contact unsubscribed from all marketing mail (its `unsubscribe_reason`). */
export const PREFERENCE_PAGE_REASON = 'preference_page';

/** What the preference page shows. */
export interface PreferenceView {
  email: SentEmailRecord;
  /** The client's brand: name and primary colour (no logo: the page loads nothing from another origin). */
  brand: { name: string; color?: string };
  /** The contact left all marketing mail (`is_subscribed` false); only the client's API can bring it back. */
  leftAll: boolean;
  /** Each topic, whether the contact gets it, and the contact's own choice (undefined: never chose: the default). */
  topics: { topic: TopicRecord; subscribed: boolean; choice?: boolean }[];
}

interface ReadDeps {
  clock: Clock;
  sentEmails: SentEmailStore;
  contacts: ContactStore;
  topics: TopicStore;
  settings: SettingsStore;
}

/** The page behind an e-mail's `/u/{token}` link; undefined for a bad token, an unknown e-mail or an erased contact. */
export async function loadPreferences(
  deps: ReadDeps,
  secret: string,
  token: string,
): Promise<PreferenceView | undefined> {
  const payload = verifyLinkToken(secret, token, 'u');
  if (!payload) return undefined;
  const email = await deps.sentEmails.get(payload.clientId, payload.sentEmailId);
  if (!email) return undefined;
  const [contact, topics, bundle] = await Promise.all([
    deps.contacts.get(email.client_id, email.contact_id),
    deps.topics.load(email.client_id),
    deps.settings.load(email.client_id, quotaMonthOf(deps.clock.now())),
  ]);
  if (!contact) return undefined;
  return {
    email,
    brand: brandOf(bundle),
    leftAll: !contact.is_subscribed,
    topics: topics.topics.map((topic) => {
      const choice = topicChoiceOf(contact, topic.id);
      return { topic, subscribed: subscribedToTopic(contact, topic), ...(choice !== undefined ? { choice } : {}) };
    }),
  };
}

/** The client's brand as the page shows it: its brand name, else company name, else account name; its colour. */
function brandOf(bundle: Awaited<ReturnType<SettingsStore['load']>>): PreferenceView['brand'] {
  const s = bundle.settings;
  return {
    name: s?.brand_name ?? s?.company_name ?? bundle.client?.name ?? 'the sender',
    ...(s?.brand_primary_color ? { color: s.brand_primary_color } : {}),
  };
}

/** Who the dashboard's preview of the page is for. */
export const SAMPLE_CONTACT = 'Sample contact';

/**
 * The preference page as a contact who never chose sees it (the dashboard's preview): the client's brand,
 * every topic at its default, still subscribed to marketing mail. Two reads (the topics item, the settings).
 */
export async function previewPreferences(
  deps: Pick<ReadDeps, 'clock' | 'topics' | 'settings'>,
  clientId: number,
): Promise<PreferencePageView> {
  const [topics, bundle] = await Promise.all([
    deps.topics.load(clientId),
    deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
  ]);
  return {
    address: SAMPLE_CONTACT,
    brand: brandOf(bundle),
    leftAll: false,
    topics: topics.topics.map((topic) => ({ topic, subscribed: topic.default_subscribed })),
  };
}

/** A saved form: the topics it showed, those left ticked, and whether "leave all marketing mail" was ticked. */
export interface PreferenceChoice {
  shown: number[];
  subscribed: number[];
  leaveAll: boolean;
}

/** Saves that found the contact's choices changed since their read, before giving up (a 500: only a storm of saves). */
const MAX_SAVE_ATTEMPTS = 5;

/**
 * The page's save (a form POST): each topic the form showed becomes the contact's explicit choice, and "leave all"
 * unsubscribes the contact from all marketing mail (never the other way: resubscribing stays the client's API
 * decision). One write: the contact, each changed topic's `contacts_left` and, when it left anything, the e-mail's
 * `unsubscribed` log, so the change is on the contact's activity timeline. The write holds only while the contact's
 * choices are those read (a one-click or an API change in between: read again and decide again), so the counts move
 * exactly once per change. Topics the form did not show (created after the page was rendered, or another client's
 * ids) are left alone. Undefined for a bad token or a contact that is gone.
 */
export async function savePreferences(
  deps: ReadDeps & { unsubscribe: UnsubscribeStore },
  secret: string,
  token: string,
  choice: PreferenceChoice,
): Promise<PreferenceView | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const view = await loadPreferences(deps, secret, token);
    if (!view) return undefined;
    const at = deps.clock.now().toISOString();
    const topics: Record<number, boolean> = {};
    const previous: Record<number, boolean | undefined> = {};
    for (const { topic, subscribed, choice: own } of view.topics) {
      if (!choice.shown.includes(topic.id)) continue;
      const wanted = choice.subscribed.includes(topic.id);
      if (wanted === subscribed) continue;
      topics[topic.id] = wanted;
      previous[topic.id] = own;
    }
    const leaveAll = choice.leaveAll && !view.leftAll;
    if (Object.keys(topics).length === 0 && !leaveAll) return view;
    const left = leaveAll || Object.values(topics).includes(false);
    const outcome = await deps.unsubscribe.savePreferences({
      clientId: view.email.client_id,
      contactId: view.email.contact_id,
      sentEmailId: view.email.id,
      topics,
      previous,
      ...(leaveAll ? { leaveAll: { reason: PREFERENCE_PAGE_REASON } } : {}),
      at,
      ...(left ? { log: { id: `preferences-${at}`, created_at: at, status: SENT_STATUS.unsubscribed } } : {}),
    });
    if (outcome === 'gone') return undefined;
    if (outcome === 'saved') {
      return {
        ...view,
        leftAll: view.leftAll || leaveAll,
        topics: view.topics.map((t) =>
          t.topic.id in topics ? { ...t, subscribed: topics[t.topic.id]!, choice: topics[t.topic.id]! } : t,
        ),
      };
    }
    if (attempt >= MAX_SAVE_ATTEMPTS)
      throw new Error("The contact's topic choices kept changing during the preference save");
  }
}

/** The form's fields (application/x-www-form-urlencoded) as a PreferenceChoice; undefined when it is not the page's form. */
export function preferenceChoiceOf(fields: URLSearchParams): PreferenceChoice | undefined {
  if (fields.get('form') !== 'preferences') return undefined;
  const ids = (values: string[]) => values.flatMap((v) => (/^\d{1,9}$/.test(v) ? [Number(v)] : []));
  return {
    shown: ids(fields.getAll('shown')),
    subscribed: ids(fields.getAll('topic')),
    leaveAll: fields.get('leave_all') === 'on',
  };
}
