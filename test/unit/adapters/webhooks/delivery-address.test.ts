import { describe, expect, it } from 'vitest';
import { resolveDeliveryAddress, type HostLookup } from '../../../../shared/adapters/webhooks/delivery-address.js';

/** A DNS that answers from a table, as a rebinding attacker's resolver would. */
const dns =
  (answers: Record<string, string[]>): HostLookup =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const lookup = dns({
  'public.example': ['93.184.215.14'],
  'mixed.example': ['93.184.215.14', '10.0.0.7'],
  'metadata.example': ['169.254.169.254'],
  'v6-metadata.example': ['fd00:ec2::254'],
  localhost: ['127.0.0.1', '::1'],
});

describe('resolveDeliveryAddress with private URLs not allowed (AWS)', () => {
  it('answers the checked address of a public name', async () => {
    expect(await resolveDeliveryAddress('public.example', { allowPrivateUrls: false, lookup })).toEqual({
      ok: true,
      address: '93.184.215.14',
      family: 4,
    });
  });

  it.each([
    [
      'mixed.example',
      'address_refused: mixed.example resolves to 10.0.0.7, a loopback, private, link-local or metadata address',
    ],
    [
      'metadata.example',
      'address_refused: metadata.example resolves to 169.254.169.254, a loopback, private, link-local or metadata address',
    ],
    [
      'v6-metadata.example',
      'address_refused: v6-metadata.example resolves to fd00:ec2::254, a loopback, private, link-local or metadata address',
    ],
    [
      'localhost',
      'address_refused: localhost resolves to 127.0.0.1, ::1, a loopback, private, link-local or metadata address',
    ],
    [
      '169.254.169.254',
      'address_refused: 169.254.169.254 resolves to 169.254.169.254, a loopback, private, link-local or metadata address',
    ],
    ['nowhere.example', 'dns_failed: nowhere.example could not be resolved (ENOTFOUND)'],
  ])('refuses %s', async (host, error) => {
    expect(await resolveDeliveryAddress(host, { allowPrivateUrls: false, lookup })).toEqual({ ok: false, error });
  });
});

describe('resolveDeliveryAddress with private URLs allowed (local runtime)', () => {
  it('lets loopback through', async () => {
    expect(await resolveDeliveryAddress('localhost', { allowPrivateUrls: true, lookup })).toEqual({
      ok: true,
      address: '127.0.0.1',
      family: 4,
    });
    expect(await resolveDeliveryAddress('::1', { allowPrivateUrls: true, lookup })).toEqual({
      ok: true,
      address: '::1',
      family: 6,
    });
  });
});
