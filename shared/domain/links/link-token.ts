import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeLinkPayload, encodeLinkPayload, type LinkPayload, type LinkPurpose } from './link-payload.js';

export { LINK_PURPOSES, type LinkPayload, type LinkPurpose } from './link-payload.js';

/** An HMAC-SHA256 key shorter than its output would be the weakest part; configuration provides ≥ 32 bytes. */
export const MIN_LINK_SECRET_BYTES = 32;
/** Genuine tokens are ≤ ~120 characters; anything longer is refused before any decoding or hashing. */
export const MAX_LINK_TOKEN_LENGTH = 256;

const TOKEN = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/;

const mac = (secret: string, payload: Buffer) => createHmac('sha256', secret).update(payload).digest();

function assertSecret(secret: string): void {
  if (typeof secret !== 'string' || Buffer.byteLength(secret) < MIN_LINK_SECRET_BYTES) {
    throw new RangeError(`The link secret must be at least ${MIN_LINK_SECRET_BYTES} bytes`);
  }
}

/** base64url bytes, only in the one spelling Node writes (no padding, unused bits zero), so a token has one form. */
function decodeCanonical(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/**
 * A public link token (DESIGN.md §8): `base64url(payload) + "." + base64url(HMAC-SHA256(secret, payload))`.
 * Unguessable and not enumerable: without the secret no other sent e-mail's token can be made from this one.
 * @throws RangeError on a short secret or an invalid purpose, client id or sent e-mail id.
 */
export function signLinkToken(secret: string, payload: LinkPayload): string {
  assertSecret(secret);
  const bytes = Buffer.from(encodeLinkPayload(payload), 'utf8');
  return `${bytes.toString('base64url')}.${mac(secret, bytes).toString('base64url')}`;
}

/**
 * The payload of a token signed with `secret` for `expectedPurpose`, or undefined for anything else — malformed,
 * oversized, tampered, signed with another secret, or made for the other purpose. Never throws; the signature is
 * compared in constant time before the payload is read.
 */
export function verifyLinkToken(secret: string, token: unknown, expectedPurpose: LinkPurpose): LinkPayload | undefined {
  try {
    if (typeof token !== 'string' || token.length > MAX_LINK_TOKEN_LENGTH) return undefined;
    const match = TOKEN.exec(token);
    if (!match) return undefined;
    assertSecret(secret);
    const payload = decodeCanonical(match[1]!);
    const signature = decodeCanonical(match[2]!);
    if (!payload || signature?.length !== 32) return undefined;
    if (!timingSafeEqual(signature, mac(secret, payload))) return undefined;
    const decoded = decodeLinkPayload(payload.toString('utf8'));
    return decoded?.purpose === expectedPurpose ? decoded : undefined;
  } catch {
    return undefined;
  }
}
