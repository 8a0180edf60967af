import * as z from 'zod';
import type { EventMessage as EventMessageShape } from '../../ports.js';
import { Email, Timestamp } from '../contacts/schemas.js';
import { boundedObject } from '../free-form/bounded-object.js';

const label = (max: number) => z.string({ error: 'Must be a string' }).trim().max(max, `Must be at most ${max} characters`);

/** An idempotency key is hashed into the lock's key, so only its length needs a bound (Stripe allows 255). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * POST /client/events. `type` is required (a slug such as `signup`); the contact is named by `email` or `uid` (its
 * `client_contact_id`). `ts` defaults to the time of the request.
 */
export const EventBody = z
  .object({
    type: z
      .string({ error: (i) => (i.input === undefined ? 'type is required' : 'type must be a string') })
      .trim()
      .min(1, 'type is required')
      .max(100, 'Must be at most 100 characters')
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'Must be a slug: letters, digits, _ . : -'),
    email: Email.optional(),
    uid: label(255).min(1, 'Must not be empty').optional(),
    auto_create_contact: z.boolean({ error: 'Must be a boolean' }).optional().default(false),
    action: label(200).optional(),
    feature: label(200).optional(),
    plan: label(200).optional(),
    source: label(200).optional(),
    status: label(200).optional(),
    amount: z.number({ error: 'Must be a number' }).finite().optional(),
    upgrade: z.boolean({ error: 'Must be a boolean' }).optional(),
    external_id: label(255).optional(),
    idempotency_key: z
      .string({ error: 'Must be a string' })
      .min(1, 'Must not be empty')
      .max(MAX_IDEMPOTENCY_KEY_LENGTH, `Must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`)
      .optional(),
    metadata: boundedObject().optional(),
    ts: Timestamp.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.email === undefined && body.uid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'email or uid is required', params: { condition: 'required' } });
    }
  });
export type EventBody = z.output<typeof EventBody>;

/** `sync=true` or `mode=sync` processes the event in the request (DESIGN.md §5). */
export const EventQuery = z.object({
  sync: z
    .enum(['true', 'false'], { error: 'Must be true or false' })
    .optional()
    .meta({ description: '`true`: process the event in the request and answer 201 with the Event and its `process_error`' }),
  mode: z
    .enum(['sync', 'async'], { error: 'Must be sync or async' })
    .optional()
    .meta({ description: '`sync`: the same as `sync=true`' }),
});
export type EventQuery = z.output<typeof EventQuery>;

export const isSyncRequest = (query: EventQuery): boolean => query.sync === 'true' || query.mode === 'sync';

/** `{id}` of /client/events/{id}: anything that is not a plain id names no event (→ 404). */
export const EventIdParams = z.object({
  id: z
    .string()
    .transform((v) => (/^\d{1,16}$/.test(v) ? Number(v) : 0))
    .meta({ description: 'The event id' }),
});

/** What the events queue carries: a pointer, the table is the truth. */
export const EventMessage = z.object({ client_id: z.int().positive(), event_id: z.int().positive() }) satisfies z.ZodType<EventMessageShape>;
