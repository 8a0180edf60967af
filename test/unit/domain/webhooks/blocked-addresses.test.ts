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
    // IPv4-compatible (::/96, deprecated): refused whatever it holds
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, hex form'],
    ['::a9fe:a9fe', 'IPv4-compatible metadata address'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['::8.8.8.8', 'IPv4-compatible, even of a public address'],
    // IPv4-mapped (::ffff:0:0/96): the IPv4 address inside is judged
    ['::ffff:10.0.0.1', 'IPv4-mapped private 10/8'],
    ['::ffff:192.168.0.1', 'IPv4-mapped private 192.168/16'],
    ['::ffff:100.64.0.1', 'IPv4-mapped CGNAT'],
    ['::ffff:0.0.0.0', 'IPv4-mapped this network'],
    ['0:0:0:0:0:ffff:7f00:0001', 'IPv4-mapped loopback, long form'],
    ['::ffff:198.18.0.1', 'IPv4-mapped benchmarking'],
    // Translated and tunnelled forms: they reach an IPv4 address on another network
    ['::ffff:0:a00:1', 'SIIT ::ffff:0:0:0/96 of 10.0.0.1'],
    ['::ffff:0:808:808', 'SIIT, even of a public address'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::808:808', 'NAT64, even of a public address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard'],
    ['fec0::1', 'deprecated site-local'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.18.0.1', 'benchmarking'],
    ['240.0.0.1', 'reserved'],
    ['fe80::1%eth0', 'link-local with a zone'],
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
    ['::ffff:93.184.215.14', 'IPv4-mapped public'],
    ['2a00:1450:4001:82b::200e', 'public IPv6'],
  ])('lets %s through (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('says nothing about a host name (names are resolved first)', () => {
    expect(isBlockedAddress('localhost')).toBe(false);
  });
});
