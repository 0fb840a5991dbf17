/** Which addresses a URL source may not be fetched from without allow_private (src/sources/private-address.ts). */
import { describe, expect, it } from 'vitest';
import { privateAddressKind } from '../../src/sources/private-address.ts';

describe('privateAddressKind', () => {
  it.each([
    ['127.0.0.1', 'a loopback'],
    ['127.255.0.9', 'a loopback'],
    ['10.1.2.3', 'a private'],
    ['172.16.0.1', 'a private'],
    ['172.31.255.255', 'a private'],
    ['192.168.1.1', 'a private'],
    ['169.254.169.254', 'a link-local'],
    ['100.64.0.1', 'a shared (carrier-grade NAT)'],
    ['0.0.0.0', 'an unspecified ("this network")'],
    ['224.0.0.1', 'a multicast'],
    ['255.255.255.255', 'a broadcast'],
    ['240.0.0.1', 'a reserved'],
    ['::1', 'a loopback'],
    ['::', 'an unspecified'],
    ['[::1]', 'a loopback'],
    ['fe80::1', 'a link-local'],
    ['fe80::1%eth0', 'a link-local'],
    ['fc00::1', 'a unique local'],
    ['fd12:3456:789a::1', 'a unique local'],
    ['fec0::1', 'a site-local'],
    ['ff02::1', 'a multicast'],
    ['::ffff:127.0.0.1', 'a loopback'],
    ['::ffff:7f00:1', 'a loopback'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'a private'],
    ['::ffff:192.168.0.1', 'a private'],
    ['::127.0.0.1', 'a loopback'],
    ['::8.8.8.8', 'a reserved (IPv4-compatible)'],
    ['64:ff9b::a9fe:a9fe', 'a link-local'],
    ['2002:c0a8:0101::1', 'a private'],
    ['2001:db8::1', 'a reserved (documentation)'],
    ['example.com', 'an invalid'],
  ])('%s is %s address', (address, kind) => {
    expect(privateAddressKind(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:80b::200e', '64:ff9b::808:808', '2002:0808:0808::1'])(
    '%s is public',
    (address) => {
      expect(privateAddressKind(address)).toBeUndefined();
    },
  );
});
