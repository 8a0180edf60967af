import * as z from '../../validation/zod.js';
import { rejectInTransform } from '../../validation/transform-issue.js';
import { invalidField } from '../../errors.js';
import type { Clock } from '../../platform.js';
import type { ContactStore } from './contact-store.js';
import { ContactView, toContactView } from './contact-view.js';
import type { TopicStore } from '../topics/topic-store.js';
import { readCursor, signCursor } from './list-cursor.js';
import { CONTACT_SOURCES, Source, Timestamp } from './schemas.js';

export const CONTACT_LIST_MAX_LIMIT = 100;
export const CONTACT_LIST_DEFAULT_LIMIT = 25;

/** Query of `GET /client/contacts` (an extra to SPEC.md, documented in docs/api-guide.md). */
export const ContactListQuery = z.object({
  limit: z._default(
    z.coerce
      .number()
      .check(
        z.int('Must be an integer'),
        z.gte(1, 'Must be at least 1'),
        z.lte(CONTACT_LIST_MAX_LIMIT, `Must be at most ${CONTACT_LIST_MAX_LIMIT}`),
      ),
    CONTACT_LIST_DEFAULT_LIMIT,
  ),
  cursor: z.optional(
    z.string().check(
      z.maxLength(200, 'Not a cursor of this list'),
      z.meta({
        description:
          '`next_cursor` of the previous page, unchanged; depends on stored data: any other value is a 422 `format`',
      }),
    ),
  ),
  email_prefix: z.optional(
    z.string().check(z.trim(), z.toLowerCase(), z.minLength(1), z.maxLength(254, 'Must be at most 254 characters')),
  ),
  is_subscribed: z.optional(
    z.pipe(
      z.enum(['true', 'false'], { error: 'Must be true or false' }),
      z.transform((v: 'true' | 'false') => v === 'true'),
    ),
  ),
  source: z
    .optional(
      z.pipe(
        z.string(),
        z.transform((v: string, ctx) => {
          const parsed = Source.safeParse(/^\d+$/.test(v) ? Number(v) : v);
          if (parsed.success) return parsed.data;
          return rejectInTransform(ctx, 'enum', 'Must be one of unknown, api, import, form, app or an integer 0 to 4');
        }),
      ),
    )
    .check(
      z.meta({ enum: [...CONTACT_SOURCES, '0', '1', '2', '3', '4'], description: 'The source by name or number' }),
    ),
  updated_since: z.optional(Timestamp),
});
export type ContactListQuery = z.output<typeof ContactListQuery>;

/** A page of `GET /client/contacts` (OpenAPI: the route's `data`). */
export const ContactList = z.object({
  contacts: z.array(ContactView),
  next_cursor: z
    .nullable(z.string())
    .check(z.meta({ description: 'Pass as `cursor` for the next page; null on the last page' })),
});
export type ContactList = z.output<typeof ContactList>;

/** `meta` of a page: the `limit` applied. */
export const ContactListMeta = z.object({ limit: z.int().check(z.gte(1), z.lte(CONTACT_LIST_MAX_LIMIT)) });

/**
 * `GET /client/contacts`: the client's contacts by ascending id, filtered, one page at a time. Each page reads at
 * most 8 × limit listing entries (docs/capacity.md), whatever the client's size; a selective filter may give a short
 * page — even an empty one — with a `next_cursor`: follow it until it is null.
 */
export async function listContacts(
  deps: { contacts: ContactStore; clock: Clock; cursorSecret: string; topics: TopicStore },
  clientId: number,
  query: ContactListQuery,
): Promise<ContactList> {
  const filter = {
    ...(query.email_prefix !== undefined ? { email_prefix: query.email_prefix } : {}),
    ...(query.is_subscribed !== undefined ? { is_subscribed: query.is_subscribed } : {}),
    ...(query.source !== undefined ? { source: query.source } : {}),
    ...(query.updated_since !== undefined ? { updated_since: query.updated_since } : {}),
  };
  let afterId: number | undefined;
  if (query.cursor !== undefined) {
    afterId = readCursor(deps.cursorSecret, query.cursor, clientId, filter);
    if (afterId === undefined)
      throw invalidField(
        'format',
        'cursor',
        'Not a cursor of this list (it belongs to another list, its filters or its client, or was altered)',
      );
  }
  const [page, topics] = await Promise.all([
    deps.contacts.list(clientId, { afterId, limit: query.limit, filter }),
    deps.topics.load(clientId),
  ]);
  const now = deps.clock.now();
  return {
    contacts: page.contacts.map((c) => toContactView(c, now, topics.topics)),
    next_cursor:
      page.nextAfterId !== undefined ? signCursor(deps.cursorSecret, clientId, page.nextAfterId, filter) : null,
  };
}
