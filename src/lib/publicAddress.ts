import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless private targets are allowed: the unspecified,
 * loopback, private, shared (CGNAT), link-local, benchmarking, documentation, multicast and
 * reserved ranges of IPv4 and their IPv6 counterparts (unique local, link-local, site-local,
 * NAT64/6to4/Teredo wrappers, documentation). IPv4-mapped IPv6 addresses are checked as IPv4.
 */
const REFUSED: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  // Unspecified, loopback and the deprecated IPv4-compatible addresses.
  ['::', 96, 'ipv6'],
  ['::ffff:0:0:0', 96, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 23, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const refused = new BlockList();
for (const [network, prefix, family] of REFUSED) refused.addSubnet(network, prefix, family);

/** `::ffff:a.b.c.d` and `::ffff:xxxx:xxxx` → `a.b.c.d`; anything else unchanged. */
function unmapped(address: string): string {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}ffff:(\d+\.\d+\.\d+\.\d+)$|^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return (dotted[1] ?? dotted[2])!;
  const hex = /^(?:0{0,4}:){0,5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$|^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(
    lower,
  );
  if (!hex) return address;
  const high = parseInt(hex[1] ?? hex[3]!, 16);
  const low = parseInt(hex[2] ?? hex[4]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether `address` (an IP literal) is a public unicast address; anything not an IP is not. */
export function isPublicAddress(address: string): boolean {
  const plain = unmapped(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  const family = isIP(plain);
  if (family === 0) return false;
  return !refused.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a host name may not be a webhook target after its DNS answer. */
export const RESOLVES_PRIVATELY = 'resolves only to private, loopback or link-local addresses';

/** Why a URL may not be a webhook target before any DNS answer (null: it may), for create and delivery alike. */
export function urlProblem(url: string, allowPrivate: boolean): string | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return 'must be an http or https URL';
  if (target.username || target.password) return 'must not carry credentials';
  if (allowPrivate) return null;
  const host = hostOf(target);
  if (isIP(host)) return isPublicAddress(host) ? null : 'names a private, loopback or link-local address';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'names a loopback host';
  return null;
}

/** The host a URL names, without brackets or the root's trailing dots (`localhost.` is `localhost`). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
}

/** How a host name is resolved: `dns.promises.lookup` with `all`. */
export type Resolver = (host: string) => Promise<{ address: string }[]>;

/**
 * Why a URL may not be a webhook target once its host name is resolved (null: it may): a name
 * that resolves, and only to addresses a webhook may not reach. A name that does not resolve,
 * or not within `timeoutMs`, is let through: delivery resolves it again before every attempt.
 */
export async function resolvedUrlProblem(
  url: string,
  allowPrivate: boolean,
  resolve: Resolver,
  timeoutMs: number,
): Promise<string | null> {
  if (allowPrivate) return null;
  const host = hostOf(new URL(url));
  if (isIP(host)) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((done) => (timer = setTimeout(() => done(null), timeoutMs).unref()));
  const resolved = Promise.resolve()
    .then(() => resolve(host))
    .catch(() => null);
  const found = await Promise.race([resolved, late]).finally(() => clearTimeout(timer));
  if (!found || found.length === 0 || found.some((a) => isPublicAddress(a.address))) return null;
  return `names a host that ${RESOLVES_PRIVATELY}`;
}
