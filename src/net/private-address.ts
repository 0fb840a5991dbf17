/**
 * Which IP addresses a URL source may never be fetched from unless `[kb.sources] allow_private`
 * is true (content/reference/configuration.md): anything that is not a public unicast address.
 * That is every block of IANA's IPv4 and IPv6 Special-Purpose Address Registries that is not
 * globally reachable (Teredo and the 6to4 relay anycast block, which the registries leave
 * undecided, included), multicast, and IPv6 outside global unicast (2000::/3). Pure.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

type Blocks = readonly (readonly [kind: string, subnets: readonly string[]])[];

/** IPv4 blocks that are not public, by what they are; the first that holds an address names it. */
const IPV4_BLOCKS: Blocks = [
  ['a broadcast', ['255.255.255.255/32']],
  ['an unspecified ("this network")', ['0.0.0.0/8']],
  ['a private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['a shared (carrier-grade NAT)', ['100.64.0.0/10']],
  ['a loopback', ['127.0.0.0/8']],
  ['a link-local', ['169.254.0.0/16']],
  ['a reserved (IETF protocol)', ['192.0.0.0/24']],
  ['a reserved (documentation)', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']],
  ['a reserved (6to4 relay anycast)', ['192.88.99.0/24']],
  ['a reserved (benchmarking)', ['198.18.0.0/15']],
  ['a multicast', ['224.0.0.0/4']],
  ['a reserved', ['240.0.0.0/4']],
];

/** Addresses inside those blocks that the registry marks globally reachable: anycast services. */
const IPV4_REACHABLE = ['192.0.0.9/32', '192.0.0.10/32'];

/** IPv6 blocks that are not public, by what they are; the first that holds an address names it. */
const IPV6_BLOCKS: Blocks = [
  ['an unspecified', ['::/128']],
  ['a loopback', ['::1/128']],
  ['a reserved (local-use NAT64)', ['64:ff9b:1::/48']],
  ['a reserved (discard-only)', ['100::/64']],
  ['a reserved (Teredo)', ['2001::/32']],
  ['a reserved (benchmarking)', ['2001:2::/48']],
  ['a reserved (documentation)', ['2001:db8::/32', '3fff::/20']],
  ['a reserved (IETF protocol)', ['2001::/23']],
  ['a reserved (SRv6 SIDs)', ['5f00::/16']],
  ['a unique local', ['fc00::/7']],
  ['a link-local', ['fe80::/10']],
  ['a site-local', ['fec0::/10']],
  ['a multicast', ['ff00::/8']],
  // Public unicast addresses are only ever allocated from 2000::/3.
  ['a reserved', ['::/3', '4000::/2', '8000::/1']],
];

/** Addresses inside 2001::/23 that the registry marks globally reachable (anycast, AMT, AS112, ORCHIDv2, DETs). */
const IPV6_REACHABLE = ['2001:1::1/128', '2001:1::2/128', '2001:1::3/128', '2001:3::/32', '2001:4:112::/48', '2001:20::/28', '2001:30::/28'];

/**
 * IPv6 prefixes whose addresses carry an IPv4 address, judged by it: the group where it starts,
 * and the kind when it is public (undefined: the address is public too).
 */
const CARRIERS: readonly (readonly [subnet: string, group: number, whenPublic: string | undefined])[] = [
  ['::ffff:0:0/96', 6, undefined], // IPv4-mapped
  ['64:ff9b::/96', 6, undefined], // NAT64
  ['2002::/16', 1, undefined], // 6to4
  ['::/96', 6, 'a reserved (IPv4-compatible)'], // IPv4-compatible, deprecated
];

const blockListOf = (subnets: readonly string[], type: 'ipv4' | 'ipv6'): BlockList => {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [address, bits] = subnet.split('/');
    list.addSubnet(address!, Number(bits), type);
  }
  return list;
};
const IPV4_LISTS = IPV4_BLOCKS.map(([kind, subnets]) => [kind, blockListOf(subnets, 'ipv4')] as const);
const IPV6_LISTS = IPV6_BLOCKS.map(([kind, subnets]) => [kind, blockListOf(subnets, 'ipv6')] as const);
const IPV4_REACHABLE_LIST = blockListOf(IPV4_REACHABLE, 'ipv4');
const IPV6_REACHABLE_LIST = blockListOf(IPV6_REACHABLE, 'ipv6');
const CARRIER_LISTS = CARRIERS.map(([subnet, group, whenPublic]) => [blockListOf([subnet], 'ipv6'), group, whenPublic] as const);
const LOOPBACK_OR_UNSPECIFIED = blockListOf(['::/127'], 'ipv6');

/**
 * What kind of non-public address `address` is, as a phrase for messages (`"a loopback"`,
 * `"a private"`, `"a link-local"`, `"a unique local"`, `"a reserved (Teredo)"`, …), or undefined
 * for a public unicast address. IPv6 forms that carry an IPv4 address (IPv4-mapped
 * `::ffff:a.b.c.d` in either notation, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) are judged by that address. Brackets and an IPv6 zone (`%eth0`) are allowed.
 * Something that is not an IP address at all is reported as `"an invalid"`.
 */
export function privateAddressKind(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return ipv4Kind(bare);
  if (isIPv6(bare)) return ipv6Kind(bare.replace(/%.*$/s, ''));
  return 'an invalid';
}

function ipv4Kind(address: string): string | undefined {
  if (IPV4_REACHABLE_LIST.check(address, 'ipv4')) return undefined;
  return IPV4_LISTS.find(([, list]) => list.check(address, 'ipv4'))?.[0];
}

function ipv6Kind(address: string): string | undefined {
  if (!LOOPBACK_OR_UNSPECIFIED.check(address, 'ipv6')) {
    for (const [list, group, whenPublic] of CARRIER_LISTS) {
      if (list.check(address, 'ipv6')) return ipv4Kind(ipv4At(ipv6Groups(address), group)) ?? whenPublic;
    }
  }
  if (IPV6_REACHABLE_LIST.check(address, 'ipv6')) return undefined;
  return IPV6_LISTS.find(([, list]) => list.check(address, 'ipv6'))?.[0];
}

/** The IPv4 address held by groups `group` and `group + 1` of an IPv6 address. */
function ipv4At(groups: readonly number[], group: number): string {
  const [high, low] = [groups[group]!, groups[group + 1]!];
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail split in two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  return tail === undefined ? first : [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}
