import { describe, expect, it } from 'vitest';
import { mimeAddress } from '../../../../shared/adapters/ses/mime-address.js';

const word = (text: string) => `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const decode = (encoded: string) =>
  encoded
    .split(' ')
    .map((w) => Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(w)?.[1] ?? '', 'base64').toString('utf8'))
    .join('');

describe('mimeAddress', () => {
  it.each(['ada@example.com', '"Acme, Inc." <hello@acme.example>', 'Acme <hello@acme.example>'])(
    'keeps the printable-ASCII address %s unchanged',
    (address) => {
      // Act
      const result = mimeAddress(address);
      // Assess
      expect(result).toBe(address);
    },
  );

  it.each([
    { address: '"Zoë" <zoe@acme.example>', expected: `${word('Zoë')} <zoe@acme.example>` },
    { address: 'Zoë <zoe@acme.example>', expected: `${word('Zoë')} <zoe@acme.example>` },
    { address: '"Ann \\"Zoë\\" B" <zoe@acme.example>', expected: `${word('Ann "Zoë" B')} <zoe@acme.example>` },
    { address: 'zoe@bücher.example', expected: 'zoe@xn--bcher-kva.example' },
    { address: '"Acme" <hello@bücher.example>', expected: '"Acme" <hello@xn--bcher-kva.example>' },
  ])('writes $address as $expected', ({ address, expected }) => {
    // Act
    const result = mimeAddress(address);
    // Assess
    expect(result).toBe(expected);
  });

  it('splits a long name into encoded words of at most 75 characters without cutting a character', () => {
    // Prepare
    const name = 'Ünïcödé Gesellschaft für Lebenszyklus-E-Mails mit beschränkter Haftung 😀😀😀';
    // Act
    const result = mimeAddress(`"${name}" <hello@acme.example>`);
    // Assess
    const [encoded, address] = result.split(' <');
    expect(address).toBe('hello@acme.example>');
    expect(encoded?.split(' ').length).toBeGreaterThan(1);
    expect(encoded?.split(' ').every((w) => w.length <= 75)).toBe(true);
    expect(decode(encoded ?? '')).toBe(name);
  });
});
