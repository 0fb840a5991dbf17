/**
 * Which IP addresses a URL source may never be fetched from unless `[kb.sources] allow_private`
 * is true (SPEC 8): anything that is not a public unicast address. Pure.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** IPv4 blocks that are not public, with what they are (RFC 6890 and friends). */
const IPV4_BLOCKS: readonly [base: string, bits: number, kind: string][] = [
  ['0.0.0.0', 8, 'an unspecified ("this network")'],
  ['10.0.0.0', 8, 'a private'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'a loopback'],
  ['169.254.0.0', 16, 'a link-local'],
  ['172.16.0.0', 12, 'a private'],
  ['192.0.0.0', 24, 'a reserved (IETF protocol)'],
  ['192.0.2.0', 24, 'a reserved (documentation)'],
  ['192.168.0.0', 16, 'a private'],
  ['198.18.0.0', 15, 'a reserved (benchmarking)'],
  ['198.51.100.0', 24, 'a reserved (documentation)'],
  ['203.0.113.0', 24, 'a reserved (documentation)'],
  ['224.0.0.0', 4, 'a multicast'],
  ['240.0.0.0', 4, 'a reserved'],
];

/**
 * What kind of non-public address `address` is, as a phrase for messages (`"a loopback"`,
 * `"a private"`, `"a link-local"`, `"a unique local"`, …), or undefined for a public unicast
 * address. IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d` in either
 * notation, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by
 * that address. Something that is not an IP address at all is reported as `"an invalid"`.
 */
export function privateAddressKind(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return ipv4Kind(ipv4Number(bare));
  if (isIPv6(bare)) return ipv6Kind(ipv6Groups(bare.replace(/%.*$/, '')));
  return 'an invalid';
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function ipv4Kind(value: number): string | undefined {
  if (value === 0xffffffff) return 'a broadcast';
  for (const [base, bits, kind] of IPV4_BLOCKS) {
    const size = 2 ** (32 - bits);
    const start = ipv4Number(base);
    if (value >= start && value < start + size) return kind;
  }
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail split in two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Number(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  return tail === undefined ? first : [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

function ipv6Kind(g: number[]): string | undefined {
  const embedded = (high: number, low: number): string | undefined => ipv4Kind(((high << 16) >>> 0) + low);
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'an unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'a loopback';
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d carry an IPv4 address.
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return embedded(g[6]!, g[7]!) ?? (g[5] === 0 ? 'a reserved (IPv4-compatible)' : undefined);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded(g[6]!, g[7]!);
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'a unique local';
  if ((first & 0xffc0) === 0xfe80) return 'a link-local';
  if ((first & 0xffc0) === 0xfec0) return 'a site-local';
  if ((first & 0xff00) === 0xff00) return 'a multicast';
  if (first === 0x2001 && g[1] === 0x0db8) return 'a reserved (documentation)';
  if (first === 0x100 && zeros(1, 4)) return 'a reserved (discard-only)';
  return undefined;
}
