import * as z from '../../validation/zod.js';
import { invalidField } from '../../errors.js';
import { readActivityCursor, signActivityCursor } from './activity-cursor.js';
import { compareActivity, newestFirst, type ActivityPosition } from './activity-position.js';
import type { ContactActivityStore, HistoryEntry } from './activity-store.js';
import { ActivityItem, eventItem, executionItem, sentEmailItem, subscriptionItem, topicItem } from './activity-view.js';
import { topicChoiceChangesOf } from '../topics/contact-topics.js';
import type { ContactStore } from './contact-store.js';
import { findContact, type ContactRefValue } from './get-contact.js';
import { FIRST_CLIENT_JOURNEY_ID } from '../../public/journey-rules.js';

export const ACTIVITY_MAX_LIMIT = 100;
export const ACTIVITY_DEFAULT_LIMIT = 20;

/** Query of `GET /client/contacts/{id}/activity`. */
export const ContactActivityQuery = z.object({
  limit: z._default(
    z.coerce
      .number()
      .check(
        z.int('Must be an integer'),
        z.gte(1, 'Must be at least 1'),
        z.lte(ACTIVITY_MAX_LIMIT, `Must be at most ${ACTIVITY_MAX_LIMIT}`),
      ),
    ACTIVITY_DEFAULT_LIMIT,
  ),
  cursor: z.optional(
    z.string().check(
      z.maxLength(300, 'Not a cursor of this timeline'),
      z.meta({
        description:
          '`next_cursor` of the previous page, unchanged; depends on stored data: any other value is a 422 `format`',
      }),
    ),
  ),
});
export type ContactActivityQuery = z.output<typeof ContactActivityQuery>;

/** `data` of a page of the timeline. */
export const ContactActivityPage = z.object({
  contact_id: z.int().check(z.gte(1)),
  items: z.array(ActivityItem).check(z.meta({ description: 'Newest first' })),
  next_cursor: z
    .nullable(z.string())
    .check(z.meta({ description: 'Pass as `cursor` for the next page; null on the last page' })),
});
export type ContactActivityPage = z.output<typeof ContactActivityPage>;

/** `meta` of a page: the `limit` applied and the DynamoDB requests the page took (docs/decisions/0080-contact-activity-timeline.md). */
export const ContactActivityMeta = z.object({
  limit: z.int().check(z.gte(1), z.lte(ACTIVITY_MAX_LIMIT)),
  dynamodb: z
    .object({ requests: z.int().check(z.gte(0)), waves: z.int().check(z.gte(0)) })
    .check(z.meta({ description: 'DynamoDB requests the page made, in how many sequential waves' })),
});

/**
 * `GET /client/contacts/{id}/activity`: the contact's processed events, executions, sent e-mails (with
 * their logs), its unsubscription in force and its topic choices, newest first, `limit` a page. Another client's contact, an erased one
 * or a missing one is a 404; a cursor of another timeline (client, contact) or an altered one is a 422 on `cursor`.
 */
export async function listContactActivity(
  deps: { contacts: ContactStore; contactActivity: ContactActivityStore; cursorSecret: string },
  clientId: number,
  ref: ContactRefValue,
  query: ContactActivityQuery,
): Promise<ContactActivityPage> {
  const contact = await findContact(deps, clientId, ref);
  let before: ActivityPosition | undefined;
  if (query.cursor !== undefined) {
    before = readActivityCursor(deps.cursorSecret, query.cursor, clientId, contact.id);
    if (before === undefined) {
      throw invalidField(
        'format',
        'cursor',
        'Not a cursor of this timeline (it belongs to another contact or client, or was altered)',
      );
    }
  }
  const history = await deps.contactActivity.entries(clientId, contact.id, { before, limit: query.limit });
  // The unsubscription and the topic choices are the contact's state, not entries of its history: each joins the
  // page where its time falls.
  const subscription = subscriptionItem(contact);
  const topics = new Map(topicChoiceChangesOf(contact).map((change) => [change.topicId, topicItem(change)]));
  const states: ActivityPosition[] = [
    ...(subscription ? [{ kind: subscription.kind, at: subscription.at, id: contact.id }] : []),
    ...[...topics.values()].map((t) => ({ kind: t.kind, at: t.at, id: t.topic_id })),
  ];
  const candidates: ActivityPosition[] = [...history.entries];
  for (const state of states) if (before === undefined || compareActivity(state, before) < 0) candidates.push(state);
  const shown = candidates.sort(newestFirst).slice(0, query.limit);
  const more = history.more || candidates.length > query.limit;

  const records = await deps.contactActivity.records(
    clientId,
    shown.filter((p): p is HistoryEntry => p.kind !== 'subscription' && p.kind !== 'topic'),
  );
  // A client journey's execution or e-mail is named from the journey index: one read more, only on a page that has one.
  const namesJourney = [...records.executions.values(), ...[...records.sentEmails.values()].map((s) => s.email)].some(
    (r) => r.workflow_id >= FIRST_CLIENT_JOURNEY_ID,
  );
  const journeys = namesJourney ? await deps.contactActivity.journeyNames(clientId) : undefined;
  const items: ActivityItem[] = [];
  for (const position of shown) {
    const item =
      position.kind === 'subscription'
        ? subscription
        : position.kind === 'topic'
          ? topics.get(position.id as number)
          : position.kind === 'event'
            ? mapped(records.events.get(position.id as number), eventItem)
            : position.kind === 'execution'
              ? mapped(records.executions.get(position.id as number), (e) => executionItem(e, journeys))
              : mapped(records.sentEmails.get(position.id as string), (s) => sentEmailItem(s.email, s.logs, journeys));
    // An entry whose record is gone by now (never expected: an index entry lives with its item) is left out.
    if (item) items.push(item);
  }
  const last = shown.at(-1);
  return {
    contact_id: contact.id,
    items,
    next_cursor: more && last ? signActivityCursor(deps.cursorSecret, clientId, contact.id, last) : null,
  };
}

const mapped = <R, T>(record: R | undefined, map: (r: R) => T): T | undefined =>
  record === undefined ? undefined : map(record);
