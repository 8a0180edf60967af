import * as z from '../../validation/zod.js';

/** `{token}` of /u and /v: any string; verification (bounded, constant-time) decides, a bad one is a 404 page. */
export const LinkTokenParams = z.object({
  token: z.string().check(z.meta({ description: 'The signed token of the link in the e-mail' })),
});
