import * as z from '../../validation/zod.js';

/** `{id}` of /client/sent-emails/{id}; the domain answers 404 for anything that is not a UUID. */
export const SentEmailIdParams = z.object({
  id: z
    .string()
    .check(z.maxLength(64, 'Must be a sent e-mail id (UUID)'), z.meta({ description: 'The sent e-mail id (UUID)' })),
});
