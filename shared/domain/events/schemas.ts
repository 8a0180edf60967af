import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import type { EventMessage as EventMessageShape } from '../../platform.js';
import { Email, Timestamp } from '../contacts/schemas.js';
import { storableNumber } from '../../validation/storable-value.js';
import { boundedObject, FREE_FORM_BOUNDS, FREE_FORM_VALUE_REF, freeFormRule } from '../free-form/bounded-object.js';
import { freeFormProblems, type ValueProblem } from '../../validation/storable-value.js';
import { issueCondition } from '../../validation/issue-items.js';

const label = (max: number) =>
  z.string({ error: 'Must be a string' }).check(z.trim(), z.maxLength(max, `Must be at most ${max} characters`));

/** An idempotency key is hashed into the lock's key, so only its length needs a bound (Stripe allows 255). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const EventFields = z.object({
  type: z
    .string({ error: (i) => (i.input === undefined ? 'type is required' : 'type must be a string') })
    .check(
      z.trim(),
      z.minLength(1, 'type is required'),
      z.maxLength(100, 'Must be at most 100 characters'),
      z.regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'Must be a slug: letters, digits, _ . : -'),
    ),
  email: z.optional(Email),
  uid: z.optional(label(255).check(z.minLength(1, 'Must not be empty'))),
  auto_create_contact: z._default(z.optional(z.boolean({ error: 'Must be a boolean' })), false),
  action: z.optional(label(200)),
  feature: z.optional(label(200)),
  plan: z.optional(label(200)),
  source: z.optional(label(200)),
  status: z.optional(label(200)),
  amount: z.optional(storableNumber()),
  upgrade: z.optional(z.boolean({ error: 'Must be a boolean' })),
  external_id: z.optional(label(255)),
  idempotency_key: z.optional(
    z
      .string({ error: 'Must be a string' })
      .check(
        z.minLength(1, 'Must not be empty'),
        z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH, `Must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`),
      ),
  ),
  metadata: z.optional(boundedObject()),
  ts: z.optional(Timestamp).check(
    z.meta({
      description:
        "When it happened (default: now). Depends on the server's clock: more than 5 minutes ahead is a 422 `max`",
    }),
  ),
});

const KNOWN_FIELDS = new Set(Object.keys(EventFields.shape));

/** The members of a body that are none of the event's fields. */
const unknownMembers = (body: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !KNOWN_FIELDS.has(key)));

/**
 * The free-form problems of the unknown members of a body as it was parsed from JSON. The schema checks them too, but
 * its output has already lost an own `__proto__` member (assigning it to a new object sets a prototype), which the
 * stored payload would keep: this reads the raw body, before it is stored.
 */
export function unknownMemberProblems(raw: Record<string, unknown>): ValueProblem[] {
  const extras: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (!KNOWN_FIELDS.has(key))
      Object.defineProperty(extras, key, { value: raw[key], enumerable: true, configurable: true, writable: true });
  }
  return freeFormProblems(extras, FREE_FORM_BOUNDS);
}

/**
 * POST /client/events. `type` is required (a slug such as `signup`); the contact is named by `email` or `uid` (its
 * `client_contact_id`). `ts` defaults to the time of the request.
 *
 * Members the event does not know are kept in the stored `payload` (the body as it was sent), so they are held to
 * the free-form rule of `metadata` (storable numbers, bounded keys, depth and size, taken together): a value the store
 * cannot hold is a 422 at its key, never a 500 from the write. The parsed body carries only the known fields.
 */
export const EventBody = z.catchall(EventFields, z.unknown()).check(
  z.superRefine((body, ctx) => {
    for (const problem of freeFormProblems(unknownMembers(body), FREE_FORM_BOUNDS)) {
      ctx.addIssue({
        code: 'custom',
        path: problem.path,
        message: problem.message,
        params: issueCondition(problem.condition),
      });
    }
  }),
  z.overwrite((body) => {
    for (const key of Object.keys(body)) if (!KNOWN_FIELDS.has(key)) delete body[key];
    return body;
  }),
  z.superRefine((body, ctx) => {
    if (body.email === undefined && body.uid === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['email'],
        message: 'email or uid is required',
        params: issueCondition('required'),
      });
    }
  }),
  // The refinement above, as the document says it (each branch names its property, as strict JSON Schema asks).
  z.meta({
    additionalProperties: { $ref: FREE_FORM_VALUE_REF },
    description: `Other members are kept in the event's \`payload\`; taken together they follow the rule of \`metadata\`: ${freeFormRule(FREE_FORM_BOUNDS)}`,
    anyOf: [
      { properties: { email: {} }, required: ['email'] },
      { properties: { uid: {} }, required: ['uid'] },
    ],
  }),
);
export type EventBody = z.output<typeof EventFields>;

/** `sync=true` or `mode=sync` processes the event in the request (DESIGN.md §5). */
export const EventQuery = z.object({
  sync: z.optional(z.enum(['true', 'false'], { error: 'Must be true or false' })).check(
    z.meta({
      description: '`true`: process the event in the request and answer 201 with the Event and its `process_error`',
    }),
  ),
  mode: z
    .optional(z.enum(['sync', 'async'], { error: 'Must be sync or async' }))
    .check(z.meta({ description: '`sync`: the same as `sync=true`' })),
});
export type EventQuery = z.output<typeof EventQuery>;

export const isSyncRequest = (query: EventQuery): boolean => query.sync === 'true' || query.mode === 'sync';

/** `{id}` of /client/events/{id}: anything that is not a plain id names no event (→ 404). */
export const EventIdParams = z.object({
  id: plainIdParam(16, 'The event id'),
});

/** What the events queue carries: a pointer, the table is the truth. */
export const EventMessage = z.object({
  client_id: z.int().check(z.positive()),
  event_id: z.int().check(z.positive()),
}) satisfies z.ZodMiniType<EventMessageShape>;
