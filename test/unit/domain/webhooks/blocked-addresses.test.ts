import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../../../shared/domain/webhooks/blocked-addresses.js';

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback range'],
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12, last'],
    ['192.168.1.10', 'private 192.168/16'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT, last'],
    ['169.254.169.254', 'EC2 metadata'],
    ['169.254.170.2', 'ECS task metadata'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00:ec2::254', 'EC2 IPv6 metadata (unique-local)'],
    ['fc00::1', 'unique-local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:a00:1', 'IPv4-mapped 10.0.0.1, hex form'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['ff02::1', 'IPv6 multicast'],
  ])('refuses %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    ['93.184.215.14', 'public IPv4'],
    ['8.8.8.8', 'public IPv4'],
    ['172.32.0.1', 'just above 172.16/12'],
    ['100.128.0.1', 'just above CGNAT'],
    ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ])('lets %s through (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('says nothing about a host name (names are resolved first)', () => {
    expect(isBlockedAddress('localhost')).toBe(false);
  });
});
