import { isIP } from 'node:net';

// Where deliveries may never go (decisions.md, Webhooks): an SSRF guard applied to the address
// actually connected to. Pure functions over address text, so every class is tested without a
// single connection.

export type ForbiddenClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'unique-local';

type V4Range = [base: number, prefix: number, cls: ForbiddenClass];

const V4: V4Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.169.254'), 32, 'metadata'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.0.2.0'), 24, 'documentation'],
  // 6to4 relay anycast (RFC 3068, deprecated by RFC 7526): a relay of somebody else's network.
  [v4('192.88.99.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'benchmarking'],
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

/** The forbidden class of an IPv4 or IPv6 address, or null when deliveries may go there. */
export function forbiddenClass(address: string): ForbiddenClass | null {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(text);
  if (family === 4) return classifyV4(v4(text));
  if (family === 6) return classifyV6(v6Bytes(text));
  return 'reserved';
}

function classifyV4(value: number): ForbiddenClass | null {
  for (const [base, prefix, cls] of V4) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if (((value & mask) >>> 0) === ((base & mask) >>> 0)) return cls;
  }
  return null;
}

function classifyV6(b: number[]): ForbiddenClass | null {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const embedded = (at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
  if (zero(0, 16)) return 'unspecified';
  if (zero(0, 15) && b[15] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4
  // (2002::/16) carry an IPv4 address: they are judged by it.
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(embedded(12));
  // SIIT IPv4-translated (::ffff:0:a.b.c.d, ::ffff:0:0/96, RFC 2765) is judged by its IPv4 too.
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return classifyV4(embedded(12));
  if (zero(0, 12)) return classifyV4(embedded(12));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return classifyV4(embedded(12));
  if (b[0] === 0x20 && b[1] === 0x02) return classifyV4(embedded(2));
  // Local-use NAT64 (64:ff9b:1::/48, RFC 8215): translates into a network of its operator's own.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0x00 && b[5] === 0x01) return 'private';
  // Site-local (fec0::/10, deprecated by RFC 3879 but still routed inside some sites).
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'private';
  if (b[0] === 0xfd && b[1] === 0x00 && b[2] === 0x0e && b[3] === 0xc2) return 'metadata'; // fd00:ec2::/32 (AWS)
  if ((b[0] & 0xfe) === 0xfc) return 'unique-local';
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link-local';
  if (b[0] === 0xff) return 'multicast';
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'documentation';
  // Inside 2001::/23 (IETF protocol assignments), the ranges that are not an ordinary host:
  // Teredo (2001::/32, RFC 4380) tunnels to an IPv4 address it hides (obfuscated, so it cannot be
  // judged by it); benchmarking (2001:2::/48, RFC 5180); ORCHID (2001:10::/28, RFC 4843) and
  // ORCHIDv2 (2001:20::/28, RFC 7343) are identifiers, not locators.
  if (b[0] === 0x20 && b[1] === 0x01) {
    if (b[2] === 0x00 && b[3] === 0x00) return 'reserved';
    if (b[2] === 0x00 && b[3] === 0x02 && b[4] === 0x00 && b[5] === 0x00) return 'benchmarking';
    if (b[2] === 0x00 && (b[3] & 0xf0) === 0x10) return 'reserved';
    if (b[2] === 0x00 && (b[3] & 0xf0) === 0x20) return 'reserved';
  }
  if (b[0] === 0x01 && zero(1, 8)) return 'reserved'; // 100::/64 discard
  return null;
}

function v4(text: string): number {
  return text.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

/** The 16 bytes of an IPv6 address (with `::` and a trailing dotted quad expanded). */
function v6Bytes(text: string): number[] {
  // A trailing dotted quad (::ffff:127.0.0.1) becomes two hex groups (::ffff:7f00:1).
  const hex = text.replace(/(\d+\.\d+\.\d+\.\d+)$/, (quad) => {
    const value = v4(quad);
    return `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  });
  const [left, right] = hex.split('::');
  const groups = (part: string) => (part ? part.split(':').map((x) => parseInt(x, 16)) : []);
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const all = right === undefined ? l : [...l, ...Array(8 - l.length - r.length).fill(0), ...r];
  return all.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
}
