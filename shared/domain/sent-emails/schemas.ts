import * as z from 'zod';

/** `{id}` of /client/sent-emails/{id}; the domain answers 404 for anything that is not a UUID. */
export const SentEmailIdParams = z.object({
  id: z.string().max(64, 'Must be a sent e-mail id (UUID)').meta({ description: 'The sent e-mail id (UUID)' }),
});
