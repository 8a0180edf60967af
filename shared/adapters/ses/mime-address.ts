import { domainToASCII } from 'node:url';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** `"quoted name" <addr>` or `bare name <addr>`. */
const NAME_ADDR = /^\s*(?:"((?:[^"\\]|\\.)*)"|([^<>"]*?))\s*<([^<>\s]+)>\s*$/s;
/** 45 bytes → 60 base64 characters → a 72-character encoded word, under RFC 2047's 75. */
const WORD_BYTES = 45;

/**
 * An address as SES accepts it: SES has no SMTPUTF8, so a non-ASCII display name must be an RFC 2047 encoded word
 * and a non-ASCII domain Punycode. A printable-ASCII address is returned unchanged. A non-ASCII local part cannot be
 * fixed here; SES refuses it (BadRequest → rejected).
 */
export function mimeAddress(address: string): string {
  if (PRINTABLE_ASCII.test(address)) return address;
  const match = NAME_ADDR.exec(address);
  if (!match) return asciiDomain(address.trim());
  const name = match[1] !== undefined ? match[1].replace(/\\(.)/gs, '$1') : (match[2] ?? '').trim();
  const addr = asciiDomain(match[3] ?? '');
  if (!name) return addr;
  const shown = PRINTABLE_ASCII.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}"` : encodedWords(name);
  return `${shown} <${addr}>`;
}

function asciiDomain(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  // domainToASCII answers '' for a domain it cannot convert; keep it then and let SES say why.
  return `${address.slice(0, at + 1)}${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}`;
}

/** `=?UTF-8?B?…?=` words, split between characters (never inside one), joined by spaces that readers drop. */
function encodedWords(text: string): string {
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    if (Buffer.byteLength(chunk + char) > WORD_BYTES) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word, 'utf8').toString('base64')}?=`).join(' ');
}
