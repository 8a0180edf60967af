import * as z from '../../validation/zod.js';
import { MAX_LINK_TOKEN_LENGTH } from './link-token.js';

/**
 * `{token}` of /u and /v: any string; verification (bounded, constant-time) decides, a bad one is a 404 page — so is
 * one longer than MAX_LINK_TOKEN_LENGTH, the bound the document states (a page declares no 422).
 */
export const LinkTokenParams = z.object({
  token: z.string().check(
    z.meta({
      maxLength: MAX_LINK_TOKEN_LENGTH,
      description: `The signed token of the link in the e-mail; longer than ${MAX_LINK_TOKEN_LENGTH} characters (or any bad token): the 404 page`,
    }),
  ),
});
