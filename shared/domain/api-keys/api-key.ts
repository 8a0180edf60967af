import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const PREFIX = 'els_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40; // 40 × log2(62) ≈ 238 bits

/** A new API key: `els_` + 40 base62 characters drawn from the CSPRNG. */
export function generateApiKey(): string {
  let out = PREFIX;
  for (let i = 0; i < RANDOM_LENGTH; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Keys are stored and looked up only by this digest. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function maskApiKey(key: string): string {
  return `${PREFIX}…${key.slice(-4)}`;
}

/** True when the string has the shape of one of our keys (cheap pre-check before any lookup). */
export function looksLikeApiKey(value: string): boolean {
  return (
    value.startsWith(PREFIX) &&
    value.length === PREFIX.length + RANDOM_LENGTH &&
    /^[0-9A-Za-z]+$/.test(value.slice(PREFIX.length))
  );
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
